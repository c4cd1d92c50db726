/**
 * Own feed posts (docs/domain/feed.md#editing): edits by the author and staff, a member's edit of an approved post
 * held for review, the history, pinning with `{ pinned }`, one post by id, and notifications that lead to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerAdminAndStaff, registerMember } from '../../support/http';
import type { Socket } from 'socket.io-client';
import { approvedPost as approved } from '../../support/content';
import { connectSocket } from '../../support/sockets';

let site: TestSite;
let admin: Browser;
let staff: Browser;
let author: Browser;
let other: Browser;
let authorId: string;
const anonymous = () => new Browser(site.url);
type Item = { id: string; content: string };
const ids = (items: Item[]) => items.map((item) => item.id);

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000' });
  ({
    admin: { browser: admin },
    staff: { browser: staff },
  } = await registerAdminAndStaff(site.url));
  ({
    browser: author,
    user: { id: authorId },
  } = await registerMember(site.url, { firstName: 'Mary', lastName: 'Member' }));
  other = (await registerMember(site.url, { firstName: 'Otto', lastName: 'Other' })).browser;
});
const sockets: Socket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await site?.close();
});

/** A socket as the browser opens it (signed in with its session, or a visitor), and the post notices it hears. */
async function listen(browser?: Browser): Promise<string[]> {
  const heard: string[] = [];
  await connectSocket(site.url, sockets, browser, (socket) =>
    socket.on('posts:changed', (payload: { id: string }) => heard.push(payload.id)),
  );
  return heard;
}

/** A member's post, approved by staff. */
const approvedPost = (content: string, tags: string[] = []) => approved(author, staff, { content, tags });

describe('editing a post', () => {
  it('replaces the text of a post still waiting for review at once', async () => {
    const created = await author.post('/api/posts', { content: 'WLS in 1925', tags: ['wls'] });
    expect(created.body.editedAt).toBeNull();
    const edited = await author.patch(`/api/posts/${created.body.id}`, { content: 'WLS signed on in 1924' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ content: 'WLS signed on in 1924', tags: ['wls'], status: 'pending', pendingRevision: false });
    expect(edited.body.editedAt).toEqual(expect.any(String));
    const queue = await staff.get('/api/admin/posts/pending');
    expect(queue.body.items.find((post: Item) => post.id === created.body.id)).toMatchObject({
      content: 'WLS signed on in 1924',
      pendingRevision: false,
    });
  });

  it('holds a member’s edit of an approved post for review while the approved text stays visible', async () => {
    const id = await approvedPost('The tower was 600 feet', ['towers']);
    const edited = await author.patch(`/api/posts/${id}`, { content: 'The tower was 650 feet', tags: ['Towers', 'WLS'] });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      content: 'The tower was 600 feet',
      tags: ['towers'],
      pendingRevision: true,
      revision: { content: 'The tower was 650 feet', tags: ['towers', 'wls'] },
      editedAt: null,
      isApproved: true,
    });

    // Everyone else reads the approved text, without a word of the edit.
    for (const reader of [other, anonymous()]) {
      const post = await reader.get(`/api/posts/${id}`);
      expect(post.status).toBe(200);
      expect(post.body.content).toBe('The tower was 600 feet');
      expect(post.body).not.toHaveProperty('pendingRevision');
      expect(post.body).not.toHaveProperty('revision');
      expect(JSON.stringify((await reader.get('/api/posts')).body)).not.toContain('650 feet');
    }
    expect((await staff.get(`/api/posts/${id}`)).body).toMatchObject({
      pendingRevision: true,
      revision: { content: 'The tower was 650 feet' },
    });

    // A second edit replaces the held one; it starts from the held text.
    const again = await author.patch(`/api/posts/${id}`, { content: 'The tower was 653 feet' });
    expect(again.body).toMatchObject({
      content: 'The tower was 600 feet',
      revision: { content: 'The tower was 653 feet', tags: ['towers', 'wls'] },
    });

    // The queue lists the edit, told apart from new posts.
    const queue = await staff.get('/api/admin/posts/pending');
    expect(queue.body.items.filter((post: Item) => post.id === id)).toEqual([
      expect.objectContaining({ pendingRevision: true, revision: expect.objectContaining({ content: 'The tower was 653 feet' }) }),
    ]);
    expect((await staff.get('/api/admin/stats')).body.pendingApproval).toBeGreaterThanOrEqual(1);

    // Approving it makes it the text of the post.
    const approved = await staff.put(`/api/admin/posts/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      content: 'The tower was 653 feet',
      tags: ['towers', 'wls'],
      pendingRevision: false,
      isApproved: true,
    });
    expect(approved.body.editedAt).toEqual(expect.any(String));
    expect((await anonymous().get(`/api/posts/${id}`)).body).toMatchObject({
      content: 'The tower was 653 feet',
      editedAt: approved.body.editedAt,
    });
    expect(ids((await staff.get('/api/admin/posts/pending')).body.items)).not.toContain(id);

    const history = await author.get(`/api/posts/${id}/revisions`);
    expect(history.status).toBe(200);
    expect(
      history.body.items.map(({ content, status, current }: { content: string; status: string; current: boolean }) => ({
        content,
        status,
        current,
      })),
    ).toEqual([
      { content: 'The tower was 653 feet', status: 'applied', current: true },
      { content: 'The tower was 650 feet', status: 'replaced', current: false },
      { content: 'The tower was 600 feet', status: 'original', current: false },
    ]);
    expect(history.body.items[0]).toMatchObject({ editedBy: { id: authorId, name: 'Mary Member' }, createdAt: expect.any(String) });
    expect(history.body.nextCursor).toBeNull();
  });

  it('keeps the approved text when staff reject the edit, and tells the author', async () => {
    const id = await approvedPost('Sign-off at midnight');
    await author.patch(`/api/posts/${id}`, { content: 'Sign-off at 1 am, buy my QSL cards' });
    const rejected = await staff.put(`/api/admin/posts/${id}/reject`, { reason: 'No selling' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ content: 'Sign-off at midnight', status: 'approved', isApproved: true, pendingRevision: false });
    expect((await anonymous().get(`/api/posts/${id}`)).status).toBe(200);
    const statuses = (await staff.get(`/api/posts/${id}/revisions`)).body.items.map((item: { status: string }) => item.status);
    expect(statuses).toEqual(['rejected', 'original']);
    const notifications = await author.get('/api/notifications');
    expect(notifications.body.items[0]).toMatchObject({
      kind: 'post_edit_rejected',
      text: 'Your edit of your post “Sign-off at midnight” was not approved: No selling',
      link: `/posts/${id}`,
      url: `/posts/${id}`,
    });
  });

  it('applies staff edits at once, and answers the same post for an edit that changes nothing', async () => {
    const id = await approvedPost('Channel 7 came on the air in 1948');
    const edited = await staff.patch(`/api/posts/${id}`, { content: 'Channel 7 came on the air in 1948.', tags: ['tv'] });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ content: 'Channel 7 came on the air in 1948.', tags: ['tv'], pendingRevision: false });
    expect((await other.get(`/api/posts/${id}`)).body.content).toBe('Channel 7 came on the air in 1948.');
    const same = await staff.patch(`/api/posts/${id}`, { content: 'Channel 7 came on the air in 1948.' });
    expect(same.body.editedAt).toBe(edited.body.editedAt);
    const history = (await author.get(`/api/posts/${id}/revisions`)).body.items;
    expect(history).toHaveLength(2);
    expect(history[0]).toMatchObject({ status: 'applied', current: true, editedBy: { name: 'Stan Staff' } });
  });

  it('refuses others, anonymous callers and invalid edits', async () => {
    const id = await approvedPost('Only mine to edit');
    expect((await other.patch(`/api/posts/${id}`, { content: 'Hijacked' })).status).toBe(403);
    expect((await anonymous().patch(`/api/posts/${id}`, { content: 'Hijacked' })).status).toBe(401);
    const empty = await author.patch(`/api/posts/${id}`, { content: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ message: 'Post content is required', fields: { content: 'Post content is required' } });
    expect((await author.patch(`/api/posts/${id}`, { mediaType: 'youtube', mediaUrl: 'https://example.org/x' })).body.fields).toEqual({
      mediaUrl: 'Enter a YouTube video link (youtube.com/watch?v=…, youtu.be/… or /shorts/…)',
    });
    expect((await author.patch(`/api/posts/${id}`, { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) })).body.fields).toEqual({
      tags: 'At most 10 tags',
    });
    expect((await author.patch('/api/posts/00000000-0000-4000-8000-000000000000', { content: 'x' })).status).toBe(404);
    // Another member's pending post is not found, as in the feed.
    const pending = await author.post('/api/posts', { content: 'Waiting' });
    expect((await other.patch(`/api/posts/${pending.body.id}`, { content: 'x' })).status).toBe(404);
    expect((await staff.get(`/api/posts/${id}`)).body.content).toBe('Only mine to edit');
  });

  it('shows the history to the author and staff only', async () => {
    const id = await approvedPost('History of mine');
    expect((await author.get(`/api/posts/${id}/revisions`)).status).toBe(200);
    expect((await admin.get(`/api/posts/${id}/revisions`)).status).toBe(200);
    expect((await other.get(`/api/posts/${id}/revisions`)).status).toBe(403);
    expect((await anonymous().get(`/api/posts/${id}/revisions`)).status).toBe(401);
    const pending = await author.post('/api/posts', { content: 'Not yet in the feed' });
    expect((await other.get(`/api/posts/${pending.body.id}/revisions`)).status).toBe(404);
  });
});

describe('live notices', () => {
  it('tells only the author and staff of a held edit, and everyone once it is approved', async () => {
    const id = await approvedPost('Heard by everyone, edited quietly');
    const [own, staffs, others, visitors] = await Promise.all([listen(author), listen(staff), listen(other), listen()]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await author.patch(`/api/posts/${id}`, { content: 'Heard by everyone, edited quietly, and better' });
    await expect.poll(() => own.includes(id) && staffs.includes(id)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(others).not.toContain(id);
    expect(visitors).not.toContain(id);
    await staff.put(`/api/admin/posts/${id}/approve`);
    await expect.poll(() => others.includes(id) && visitors.includes(id)).toBe(true);
  });
});

describe('deleting a post', () => {
  it('lets its author or staff delete it, and no one else', async () => {
    const id = await approvedPost('Delete me later');
    expect((await other.delete(`/api/posts/${id}`)).status).toBe(403);
    expect((await author.delete(`/api/posts/${id}`)).status).toBe(204);
    expect((await author.get(`/api/posts/${id}`)).status).toBe(404);
    expect((await author.get(`/api/posts/${id}/revisions`)).status).toBe(404);
    const second = await approvedPost('Staff delete me');
    expect((await staff.delete(`/api/posts/${second}`)).status).toBe(204);
    expect(ids((await anonymous().get('/api/posts')).body.items)).not.toContain(second);
  });
});

describe('pinning with { pinned }', () => {
  it('pins and unpins through one endpoint, keeping /unpin and the empty body working', async () => {
    const id = await approvedPost('Pin me');
    expect((await author.put(`/api/admin/posts/${id}/pin`, { pinned: true })).status).toBe(403);
    const pinned = await staff.put(`/api/admin/posts/${id}/pin`, { pinned: true });
    expect(pinned.body.isPinned).toBe(true);
    expect((await anonymous().get('/api/posts')).body.items[0].id).toBe(id);
    expect((await staff.put(`/api/admin/posts/${id}/pin`, { pinned: false })).body.isPinned).toBe(false);
    expect((await staff.put(`/api/admin/posts/${id}/pin`)).body.isPinned).toBe(true);
    expect((await staff.put(`/api/admin/posts/${id}/unpin`)).body.isPinned).toBe(false);
    expect((await staff.put(`/api/admin/posts/${id}/pin`, { pinned: 'yes' })).status).toBe(400);
  });
});

describe('one post', () => {
  it('shows a post as the feed does: pending and rejected ones to their author and staff only', async () => {
    const id = await approvedPost('Everyone may read this');
    const read = await anonymous().get(`/api/posts/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, content: 'Everyone may read this', isApproved: true, editedAt: null });
    expect(read.body).not.toHaveProperty('rejectionReason');

    const pending = (await author.post('/api/posts', { content: 'Only for me and staff' })).body.id;
    expect((await author.get(`/api/posts/${pending}`)).status).toBe(200);
    expect((await staff.get(`/api/posts/${pending}`)).status).toBe(200);
    expect((await other.get(`/api/posts/${pending}`)).status).toBe(404);
    expect((await anonymous().get(`/api/posts/${pending}`)).status).toBe(404);
    await staff.put(`/api/admin/posts/${pending}/reject`, { reason: 'Off topic' });
    expect((await author.get(`/api/posts/${pending}`)).body).toMatchObject({ status: 'rejected', rejectionReason: 'Off topic' });
    expect((await other.get(`/api/posts/${pending}`)).status).toBe(404);
    expect((await anonymous().get('/api/posts/not-an-id')).status).toBe(400);
    expect((await anonymous().get('/api/posts/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('a member who edits their rejected post sends it back for review', async () => {
    const id = (await author.post('/api/posts', { content: 'Too short' })).body.id;
    await staff.put(`/api/admin/posts/${id}/reject`, { reason: 'Say more' });
    const edited = await author.patch(`/api/posts/${id}`, { content: 'Too short, now with the whole story of the station' });
    expect(edited.body).toMatchObject({ status: 'pending', rejectionReason: null });
    expect(ids((await staff.get('/api/admin/posts/pending')).body.items)).toContain(id);
  });
});

describe('notifications lead to the post’s page', () => {
  it('links a comment to /posts/{id}#comment-{id} and an approval to /posts/{id}', async () => {
    const created = await author.post('/api/posts', { content: 'Ask me about the 1938 broadcast' });
    const id = created.body.id as string;
    await staff.put(`/api/admin/posts/${id}/approve`);
    const approval = (await author.get('/api/notifications')).body.items[0];
    expect(approval).toMatchObject({ kind: 'post_approved', link: `/posts/${id}`, url: `/posts/${id}` });
    const comment = await other.post(`/api/posts/${id}/comments`, { content: 'Were you listening?' });
    expect(comment.status).toBe(201);
    const told = (await author.get('/api/notifications')).body.items[0];
    expect(told).toMatchObject({
      kind: 'comment',
      link: `/posts/${id}#comment-${comment.body.id}`,
      url: `/posts/${id}#comment-${comment.body.id}`,
    });
  });
});
