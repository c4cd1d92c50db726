import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';

let site: TestSite;
let staff: Browser;
let member: Browser;
const anonymous = () => new Browser(site.url);

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' });
  staff = (await registerMember(site.url, { firstName: 'Sally', lastName: 'Editor' })).browser;
  member = (await registerMember(site.url)).browser;
});
afterAll(async () => {
  await site?.close();
});

describe('blog', () => {
  let draftId: string;

  it('lets only staff write, sanitising the HTML and generating an empty excerpt', async () => {
    const body = { title: 'Towers & "tubes"', content: '<h2>Raised in 1948</h2><p onclick="x()">The crew <script>alert(1)</script>worked through two winters.</p>', excerpt: '' };
    expect((await member.post('/api/blog', body)).status).toBe(403);
    expect((await anonymous().post('/api/blog', body)).status).toBe(401);
    const created = await staff.post('/api/blog', body);
    expect(created.status).toBe(201);
    expect(created.body.content).toBe('<h2>Raised in 1948</h2><p>The crew worked through two winters.</p>');
    expect(created.body.excerpt).toBe('Raised in 1948 The crew worked through two winters.');
    expect(created.body).toMatchObject({ isPublished: false, isPinned: false, isFeatured: false, publishedAt: null, author: { name: 'Sally Editor', firstName: 'Sally', lastName: 'Editor', role: 'admin' } });
    draftId = created.body.id;
  });

  it('refuses a post without title or with content that is empty once sanitised', async () => {
    const untitled = await staff.post('/api/blog', { title: '', content: '<p>x</p>' });
    expect(untitled.status).toBe(400);
    expect(untitled.body.fields.title).toBe('Title is required');
    const onlyScript = await staff.post('/api/blog', { title: 'Empty', content: '<script>alert(1)</script>' });
    expect(onlyScript.status).toBe(400);
    expect(onlyScript.body.fields.content).toBe('Content is required');
  });

  it('hides drafts from readers and shows them to staff', async () => {
    expect((await member.get('/api/blog')).body).toEqual([]);
    expect((await member.get(`/api/blog/${draftId}`)).status).toBe(404);
    expect((await staff.get(`/api/blog/${draftId}`)).status).toBe(200);
    expect((await staff.get('/api/admin/blog')).body.map((p: { id: string }) => p.id)).toEqual([draftId]);
    expect((await member.get('/api/admin/blog')).status).toBe(403);
  });

  it('edits, publishes keeping the first publication time, pins and features', async () => {
    const edited = await staff.patch(`/api/blog/${draftId}`, { title: 'Towers & tubes', excerpt: 'How the first towers went up.', content: '<p>Edited</p>' });
    expect(edited.body).toMatchObject({ title: 'Towers & tubes', excerpt: 'How the first towers went up.', content: '<p>Edited</p>' });
    const published = await staff.post(`/api/blog/${draftId}/publish`);
    expect(published.body.isPublished).toBe(true);
    const firstPublishedAt = published.body.publishedAt;
    await staff.post(`/api/blog/${draftId}/unpublish`);
    expect((await anonymous().get(`/api/blog/${draftId}`)).status).toBe(404);
    const again = await staff.post(`/api/blog/${draftId}/publish`);
    expect(again.body.publishedAt).toBe(firstPublishedAt);
    expect((await staff.post(`/api/blog/${draftId}/pin`)).body.isPinned).toBe(true);
    expect((await staff.post(`/api/blog/${draftId}/feature`)).body.isFeatured).toBe(true);
    expect((await member.post(`/api/blog/${draftId}/unpin`)).status).toBe(403);
    expect((await anonymous().get(`/api/blog/${draftId}`)).body.title).toBe('Towers & tubes');
  });

  it('lists published posts pinned first, filtered by featured and pinned, with a limit', async () => {
    const other = (await staff.post('/api/blog', { title: 'Later post', content: '<p>Later</p>', isPublished: true })).body;
    const list = (await anonymous().get('/api/blog')).body.map((p: { id: string }) => p.id);
    expect(list).toEqual([draftId, other.id]);
    expect((await anonymous().get('/api/blog?featured=true')).body.map((p: { id: string }) => p.id)).toEqual([draftId]);
    expect((await anonymous().get('/api/blog?pinned=false')).body.map((p: { id: string }) => p.id)).toEqual([other.id]);
    expect((await anonymous().get('/api/blog?limit=1')).body).toHaveLength(1);
    expect((await anonymous().get('/api/blog?limit=0')).status).toBe(400);
  });

  it('publishes an RSS 2.0 feed of published posts with escaped text', async () => {
    const feed = await anonymous().get('/rss');
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/application\/rss\+xml/);
    expect(feed.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    expect(feed.body).toContain('<title>Towers &amp; tubes</title>');
    expect(feed.body).toContain(`<link>${site.services.config.publicUrl}/blog/${draftId}</link>`);
    expect(feed.body.match(/<item>/g)).toHaveLength(2);
  });

  it('deletes for staff only', async () => {
    const doomed = (await staff.post('/api/blog', { title: 'Doomed', content: '<p>x</p>' })).body.id;
    expect((await member.delete(`/api/blog/${doomed}`)).status).toBe(403);
    expect((await staff.delete(`/api/blog/${doomed}`)).status).toBe(204);
    expect((await staff.get(`/api/blog/${doomed}`)).status).toBe(404);
  });
});
