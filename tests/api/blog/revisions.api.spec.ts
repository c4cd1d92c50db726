/**
 * Revisions of a blog post (docs/domain/blog.md#revisions): every save keeps one, kept by the blog projection from the
 * log, with who saved it and when; staff list them, read one and restore it as a new save, which changes the post,
 * keeps its address and publication and mails nobody again. Members are refused (403), guests asked to sign in (401).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerAdminAndStaff, registerMember } from '../../support/http';
import { streamName } from '../../../shared/streams';

let site: TestSite;
let admin: Browser;
let staff: Browser;
let member: Browser;

type Summary = { id: string; at: string; author: { id: string; name: string }; title: string };

beforeAll(async () => {
  site = await startTestSite();
  const cast = await registerAdminAndStaff(site.url);
  admin = cast.admin.browser;
  staff = cast.staff.browser;
  member = (await registerMember(site.url, { firstName: 'Mona', lastName: 'Member' })).browser;
});
afterAll(async () => {
  await site?.close();
});

const revisions = async (id: string): Promise<Summary[]> => {
  const response = await staff.get(`/api/admin/blog/${id}/revisions`);
  expect(response.status).toBe(200);
  return response.body;
};

describe('revisions', () => {
  it('keeps one per save, newest first, with its author and time; restoring one is a new save of its text', async () => {
    const created = await admin.post('/api/blog', {
      title: 'The first tower',
      content: '<p>Built in 1922.</p>',
      tags: ['towers'],
      isPublished: true,
    });
    expect(created.status).toBe(201);
    const post = created.body;
    const before = Date.now();
    const edited = await staff.patch(`/api/blog/${post.id}`, {
      title: 'The first tower, rebuilt',
      excerpt: 'A new mast.',
      content: '<p>Rebuilt in 1931 <script>x</script>with a taller mast.</p>',
      tags: ['towers', 'rebuilt'],
    });
    expect(edited.status).toBe(200);
    // A save that changes nothing of the text keeps no revision.
    await staff.patch(`/api/blog/${post.id}`, {
      title: 'The first tower, rebuilt',
      excerpt: 'A new mast.',
      content: edited.body.content,
    });

    const listed = await revisions(post.id);
    expect(listed.map((revision) => [revision.title, revision.author.name])).toEqual([
      ['The first tower, rebuilt', 'Stan Staff'],
      ['The first tower', 'Ada Admin'],
    ]);
    expect(Date.parse(listed[0]!.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(listed[1]!.at).toBe(post.createdAt);

    const first = await staff.get(`/api/admin/blog/${post.id}/revisions/${listed[1]!.id}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ title: 'The first tower', content: '<p>Built in 1922.</p>', tags: ['towers'] });
    expect(first.body.excerpt).toBe(post.excerpt);
    const second = await staff.get(`/api/admin/blog/${post.id}/revisions/${listed[0]!.id}`);
    expect(second.body.content).not.toContain('script');

    const restored = await admin.post(`/api/admin/blog/${post.id}/revisions/${listed[1]!.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      title: 'The first tower',
      content: '<p>Built in 1922.</p>',
      tags: ['towers'],
      excerpt: post.excerpt,
      slug: post.slug,
      isPublished: true,
      publishedAt: post.publishedAt,
    });
    const read = await new Browser(site.url).get(`/api/blog/${post.slug}`);
    expect(read.body.title).toBe('The first tower');

    const after = await revisions(post.id);
    expect(after.map((revision) => [revision.title, revision.author.name])).toEqual([
      ['The first tower', 'Ada Admin'],
      ['The first tower, rebuilt', 'Stan Staff'],
      ['The first tower', 'Ada Admin'],
    ]);
    // Published once: the restore is an edit, never a second publication (which would mail subscribers again).
    const events = await site.services.eventStore.readStream(streamName('blog', post.id));
    expect(events.map((event) => event.type)).toEqual(['BlogPostDrafted', 'BlogPostPublished', 'BlogPostEdited', 'BlogPostEdited']);
  });

  it('answers 404 for a revision of another post or an unknown post, and forgets a deleted post’s revisions', async () => {
    const one = (await staff.post('/api/blog', { title: 'One', content: '<p>One</p>' })).body;
    const other = (await staff.post('/api/blog', { title: 'Other', content: '<p>Other</p>' })).body;
    const [revision] = await revisions(one.id);
    expect((await staff.get(`/api/admin/blog/${other.id}/revisions/${revision!.id}`)).status).toBe(404);
    expect((await staff.post(`/api/admin/blog/${other.id}/revisions/${revision!.id}/restore`)).status).toBe(404);
    expect((await staff.get(`/api/admin/blog/00000000-0000-4000-8000-000000000000/revisions`)).status).toBe(404);
    expect((await staff.delete(`/api/blog/${one.id}`)).status).toBe(204);
    expect((await staff.get(`/api/admin/blog/${one.id}/revisions`)).status).toBe(404);
    expect(await site.services.store.collection('blog_revisions').countDocuments({ postId: one.id })).toBe(0);
  });

  it('are for staff only: a member is refused, a guest asked to sign in', async () => {
    const post = (await staff.post('/api/blog', { title: 'Guarded', content: '<p>Text</p>' })).body;
    const [revision] = await revisions(post.id);
    const guest = new Browser(site.url);
    for (const [method, path] of [
      ['GET', `/api/admin/blog/${post.id}/revisions`],
      ['GET', `/api/admin/blog/${post.id}/revisions/${revision!.id}`],
      ['POST', `/api/admin/blog/${post.id}/revisions/${revision!.id}/restore`],
    ] as const) {
      expect((await member.request(method, path, method === 'POST' ? {} : undefined)).status, path).toBe(403);
      expect((await guest.request(method, path, method === 'POST' ? {} : undefined)).status, path).toBe(401);
    }
  });
});
