/** Bookmarks through HTTP: save and unsave idempotently, newest first with the items as they are now, only one's own. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../../support/site';
import { Browser, registerCast } from '../../support/http';
import { createEvent } from '../../support/content';

let site: TestSite;
let staff: Browser;
let member: Browser;
let other: Browser;

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  ({
    staff: { browser: staff },
    member: { browser: member },
    other: { browser: other },
  } = await registerCast(site.url));
});
afterAll(() => site?.close());

type Saved = { kind: string; id: string; item: { title: string; excerpt: string; link: string; removed: boolean; cancelled: boolean } };
const saved = async (browser: Browser) => (await browser.get('/api/bookmarks')).body.items as Saved[];

describe('bookmarks', () => {
  let postId: string;
  let eventId: string;
  let blogId: string;

  it('save posts, events and blog posts once each, newest first, with the items', async () => {
    postId = (await staff.post('/api/posts', { content: 'The WGN tower turns 75' })).body.id;
    eventId = await createEvent(staff, {
      title: 'Engineers’ lunch',
      description: 'At the Drake',
      startDate: '2030-02-01T18:00:00Z',
      endDate: '2030-02-01T21:00:00Z',
    });
    blogId = (await staff.post('/api/blog', { title: 'Sign-on 1922', content: '<p>Text</p>', excerpt: 'How it began', isPublished: true }))
      .body.id;
    expect((await member.put(`/api/bookmarks/post/${postId}`)).body).toMatchObject({
      kind: 'post',
      id: postId,
      item: { title: 'Post by Stan Staff', excerpt: 'The WGN tower turns 75', link: `/posts/${postId}`, removed: false },
    });
    expect((await member.put(`/api/bookmarks/post/${postId}`)).status).toBe(200);
    await member.put(`/api/bookmarks/event/${eventId}`);
    await member.put(`/api/bookmarks/blog/${blogId}`);
    expect((await saved(member)).map((b) => `${b.kind}:${b.item.title}`)).toEqual([
      'blog:Sign-on 1922',
      'event:Engineers’ lunch',
      'post:Post by Stan Staff',
    ]);
    expect(await saved(other)).toEqual([]);
  });

  it('refuse what the member may not see or does not exist', async () => {
    const pending = (await other.post('/api/posts', { content: 'Pending' })).body.id;
    expect((await member.put(`/api/bookmarks/post/${pending}`)).status).toBe(404);
    expect((await member.put('/api/bookmarks/post/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await member.put(`/api/bookmarks/video/${postId}`)).status).toBe(400);
    expect((await new Browser(site.url).put(`/api/bookmarks/post/${postId}`)).status).toBe(401);
  });

  it('show what became of the item: removed, cancelled', async () => {
    await staff.delete(`/api/posts/${postId}`);
    await other.put(`/api/events/${eventId}/rsvp/me`, { status: 'attending' });
    await staff.post(`/api/events/${eventId}/cancel`);
    const byKind = Object.fromEntries((await saved(member)).map((b) => [b.kind, b.item]));
    expect(byKind.post).toMatchObject({ removed: true, title: 'No longer available' });
    expect(byKind.event).toMatchObject({ removed: false, cancelled: true });
    expect(byKind.blog).toMatchObject({ removed: false });
  });

  it('are unsaved idempotently', async () => {
    expect((await member.delete(`/api/bookmarks/blog/${blogId}`)).status).toBe(204);
    expect((await member.delete(`/api/bookmarks/blog/${blogId}`)).status).toBe(204);
    expect((await saved(member)).map((b) => b.kind)).toEqual(['event', 'post']);
  });
});
