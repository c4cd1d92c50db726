/**
 * Every blog call of the OpenAPI document plus delete, preview and /rss, for every role, with
 * their errors, and the `blog:changed` notices each write pushes to the right rooms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { connectSocket } from '../../support/sockets';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';

const PUBLIC_URL = 'https://broadcast.example.org';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const TOGGLES = ['publish', 'unpublish', 'pin', 'unpin', 'feature', 'unfeature'] as const;

let site: TestSite;
let admin: Browser;
let staff: Browser;
let member: Browser;
let subscriber: Browser;
const anonymous = () => new Browser(site.url);
const sockets: Socket[] = [];

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', PUBLIC_URL, SECURE_COOKIES: 'false' });
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  const promote = async (role: string, names: { firstName: string; lastName: string }) => {
    const { browser, user } = await registerMember(site.url, names);
    if (role !== 'member') expect((await admin.put(`/api/admin/users/${user.id}/role`, { role })).status).toBe(200);
    return browser;
  };
  staff = await promote('staff', { firstName: 'Sally', lastName: 'Editor' });
  member = await promote('member', { firstName: 'Rita', lastName: 'Reader' });
  subscriber = await promote('subscriber', { firstName: 'Sam', lastName: 'Subscriber' });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await site?.close();
});

const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((post) => post.id);
const create = async (body: Record<string, unknown>) => {
  const response = await staff.post('/api/blog', { content: '<p>Text</p>', ...body });
  expect(response.status).toBe(201);
  return response.body as { id: string; [field: string]: unknown };
};

/** A socket as `browser` (anonymous when absent), recording every `blog:changed` it receives. */
async function listen(browser?: Browser) {
  const received: string[] = [];
  await connectSocket(site.url, sockets, browser, (socket) =>
    socket.on('blog:changed', (payload: { id: string; kind: string }) => received.push(`${payload.kind}:${payload.id}`)),
  );
  return received;
}

describe('writing', () => {
  it('lets admin and staff create, sanitising the HTML and generating an empty excerpt', async () => {
    const body = {
      title: 'Towers & "tubes"',
      content: '<h2>Raised in 1948</h2><p onclick="x()">The crew <script>alert(1)</script>worked through two winters.</p>',
      excerpt: '',
    };
    const created = await staff.post('/api/blog', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Towers & "tubes"',
      content: '<h2>Raised in 1948</h2><p>The crew worked through two winters.</p>',
      excerpt: 'Raised in 1948 The crew worked through two winters.',
      tags: [],
      isPublished: false,
      isPinned: false,
      isFeatured: false,
      publishedAt: null,
      author: { name: 'Sally Editor', firstName: 'Sally', lastName: 'Editor', role: 'staff', profileImageUrl: null },
    });
    expect(created.body.updatedAt).toBe(created.body.createdAt);
    expect((await admin.post('/api/blog', { title: 'By the admin', content: '<p>x</p>' })).body.author).toMatchObject({
      name: 'Ada Admin',
      role: 'admin',
    });
  });

  it('keeps a picture of our own uploads (/media/…) with its size and alt text, and no handler, other attribute or script source', async () => {
    const src = '/media/0b6d7c1e-2a3b-4c5d-8e9f-0123456789ab/blog.webp';
    const content =
      `<p>Before</p><p><img src="${src}" width="1600" height="1067" alt="The transmitter hall" onerror="alert(1)" onload="x()" style="position:fixed" class="c" srcset="https://e.example/x.png 2x" /></p>` +
      `<p><img src="javascript:alert(1)" alt="script" /><img src="/media/0b6d7c1e-2a3b-4c5d-8e9f-0123456789ab/../../api/logout" alt="api" /><img src="/uploads/a.png" alt="elsewhere" /></p>`;
    const created = await staff.post('/api/blog', { title: 'Inline pictures', content });
    expect(created.status).toBe(201);
    expect(created.body.content).toBe(
      `<p>Before</p><p><img src="${src}" width="1600" height="1067" alt="The transmitter hall" /></p><p></p>`,
    );
    const edited = await staff.patch(`/api/blog/${created.body.id}`, {
      title: 'Inline pictures',
      excerpt: '',
      content: `<p><img src="${src}" width="50%" height="1067" alt="Hall" onmouseover="x()" /></p>`,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.content).toBe(`<p><img src="${src}" height="1067" alt="Hall" /></p>`);
    const preview = await staff.post('/api/blog/preview', { content: `<img src="${src}" width="800" height="600" alt="x" onerror="y()">` });
    expect(preview.body.content).toBe(`<img src="${src}" width="800" height="600" alt="x" />`);
  });

  it('creates with every toggle at once, keeping a written excerpt and the tags', async () => {
    const post = await create({
      title: 'All at once',
      excerpt: '  Written by hand.  ',
      isPublished: true,
      isPinned: true,
      isFeatured: true,
      tags: ['#Radio', 'tv'],
    });
    expect(post).toMatchObject({ excerpt: 'Written by hand.', isPublished: true, isPinned: true, isFeatured: true, tags: ['radio', 'tv'] });
    expect(post.publishedAt).toBe(post.createdAt);
  });

  it('refuses members, subscribers and anonymous callers for every write', async () => {
    const post = await create({ title: 'Guarded' });
    const writes: [string, string, unknown?][] = [
      ['POST', '/api/blog', { title: 'Mine', content: '<p>x</p>' }],
      ['PATCH', `/api/blog/${post.id}`, { title: 'Mine', content: '<p>x</p>' }],
      ['DELETE', `/api/blog/${post.id}`],
      ['POST', '/api/blog/preview', { content: '<p>x</p>' }],
      ...TOGGLES.map((toggle) => ['POST', `/api/blog/${post.id}/${toggle}`, {}] as [string, string, unknown]),
    ];
    for (const [method, path, body] of writes) {
      expect([method, path, (await member.request(method, path, body ?? {})).status]).toEqual([method, path, 403]);
      expect([method, path, (await subscriber.request(method, path, body ?? {})).status]).toEqual([method, path, 403]);
      expect([method, path, (await anonymous().request(method, path, body ?? {})).status]).toEqual([method, path, 401]);
    }
    expect((await member.get('/api/admin/blog')).status).toBe(403);
    expect((await subscriber.get('/api/admin/blog')).status).toBe(403);
    expect((await anonymous().get('/api/admin/blog')).status).toBe(401);
    expect((await staff.get(`/api/blog/${post.id}`)).body).toMatchObject({ title: 'Guarded', isPublished: false });
  });

  it('refuses a missing title, content empty once sanitised, and wrong types, naming the field', async () => {
    const before = (await staff.get('/api/admin/blog?limit=100')).body.items.length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ content: '<p>x</p>' }, 'title', 'Title is required'],
      [{ title: '   ', content: '<p>x</p>' }, 'title', 'Title is required'],
      [{ title: 'x'.repeat(256), content: '<p>x</p>' }, 'title', 'Title must be at most 255 characters'],
      [{ title: 'No content' }, 'content', 'Content is required'],
      [{ title: 'Only a script', content: '<script>alert(1)</script>' }, 'content', 'Content is required'],
      [{ title: 'Only a style', content: '<style>p{}</style>  ' }, 'content', 'Content is required'],
      [{ title: 'Flag', content: '<p>x</p>', isPublished: 'yes' }, 'isPublished', 'isPublished must be true or false'],
    ];
    for (const [body, field, message] of cases) {
      const response = await staff.post('/api/blog', body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message, fields: { [field]: message } });
    }
    expect((await staff.get('/api/admin/blog?limit=100')).body.items.length).toBe(before);
  });

  it('edits the whole record, sanitising again, generating an emptied excerpt and stamping Updated', async () => {
    const post = await create({ title: 'Before', excerpt: 'Old excerpt' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const edited = await staff.patch(`/api/blog/${post.id}`, {
      title: 'After',
      excerpt: '',
      content: '<p>New <img src="http://insecure.example/x.png"> <a href="javascript:alert(1)">text</a></p>',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      title: 'After',
      content: '<p>New  <a rel="noopener noreferrer">text</a></p>',
      excerpt: 'New text',
      createdAt: post.createdAt,
    });
    expect(edited.body.updatedAt > (post.createdAt as string)).toBe(true);
    expect((await admin.patch(`/api/blog/${post.id}`, { title: 'By admin', content: '<p>y</p>' })).body.title).toBe('By admin');
  });

  it('refuses an edit that is invalid or of a post that does not exist', async () => {
    const post = await create({ title: 'Edit me' });
    const emptied = await staff.patch(`/api/blog/${post.id}`, { title: 'Edit me', content: '<iframe src="https://x.example"></iframe>' });
    expect(emptied.status).toBe(400);
    expect(emptied.body.fields).toEqual({ content: 'Content is required' });
    expect((await staff.patch(`/api/blog/${post.id}`, { content: '<p>x</p>' })).body.fields).toEqual({ title: 'Title is required' });
    const missing = await staff.patch(`/api/blog/${UNKNOWN_ID}`, { title: 'Ghost', content: '<p>x</p>' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Blog post not found');
    expect((await staff.patch('/api/blog/not-a-uuid', { title: 'Ghost', content: '<p>x</p>' })).status).toBe(404);
  });

  it('publishes keeping the first publication time, and every toggle answers the post and repeats harmlessly', async () => {
    const post = await create({ title: 'Toggled' });
    const published = await staff.post(`/api/blog/${post.id}/publish`);
    expect(published.status).toBe(200);
    expect(published.body.isPublished).toBe(true);
    const firstPublishedAt = published.body.publishedAt;
    expect(firstPublishedAt).not.toBeNull();
    expect((await staff.post(`/api/blog/${post.id}/publish`)).body.publishedAt).toBe(firstPublishedAt);
    expect((await staff.post(`/api/blog/${post.id}/unpublish`)).body).toMatchObject({ isPublished: false, publishedAt: firstPublishedAt });
    expect((await anonymous().get(`/api/blog/${post.id}`)).status).toBe(404);
    expect((await admin.post(`/api/blog/${post.id}/publish`)).body.publishedAt).toBe(firstPublishedAt);

    expect((await staff.post(`/api/blog/${post.id}/pin`)).body.isPinned).toBe(true);
    expect((await staff.post(`/api/blog/${post.id}/pin`)).body.isPinned).toBe(true);
    expect((await staff.post(`/api/blog/${post.id}/unpin`)).body.isPinned).toBe(false);
    expect((await staff.post(`/api/blog/${post.id}/feature`)).body.isFeatured).toBe(true);
    expect((await staff.post(`/api/blog/${post.id}/unfeature`)).body.isFeatured).toBe(false);
    expect((await staff.post(`/api/blog/${post.id}/unfeature`)).body.isFeatured).toBe(false);
    const after = (await staff.get(`/api/blog/${post.id}`)).body;
    expect(after.updatedAt).toBe(post.updatedAt);
  });

  it('answers 404 to every toggle and delete of a post that does not exist', async () => {
    for (const toggle of TOGGLES) {
      const response = await staff.post(`/api/blog/${UNKNOWN_ID}/${toggle}`);
      expect([toggle, response.status, response.body.message]).toEqual([toggle, 404, 'Blog post not found']);
    }
    expect((await staff.post('/api/blog/42/publish')).status).toBe(404);
    expect((await staff.delete(`/api/blog/${UNKNOWN_ID}`)).status).toBe(404);
  });

  it('deletes for staff: gone from every list, the post page and further changes', async () => {
    const doomed = await create({ title: 'Doomed', isPublished: true });
    expect(ids(await anonymous().get('/api/blog'))).toContain(doomed.id);
    expect((await staff.delete(`/api/blog/${doomed.id}`)).status).toBe(204);
    expect((await staff.get(`/api/blog/${doomed.id}`)).status).toBe(404);
    expect(ids(await anonymous().get('/api/blog'))).not.toContain(doomed.id);
    expect(ids(await staff.get('/api/admin/blog'))).not.toContain(doomed.id);
    expect((await staff.post(`/api/blog/${doomed.id}/publish`)).status).toBe(404);
    expect((await staff.patch(`/api/blog/${doomed.id}`, { title: 'Back', content: '<p>x</p>' })).status).toBe(404);
    expect((await staff.delete(`/api/blog/${doomed.id}`)).status).toBe(404);
  });

  it('shows the author’s current role once it changes', async () => {
    const writer = await registerMember(site.url, { firstName: 'Wendy', lastName: 'Writer' });
    await admin.put(`/api/admin/users/${writer.user.id}/role`, { role: 'staff' });
    const post = (await writer.browser.post('/api/blog', { title: 'By Wendy', content: '<p>x</p>', isPublished: true })).body;
    expect(post.author).toMatchObject({ name: 'Wendy Writer', role: 'staff' });
    expect((await admin.put(`/api/admin/users/${writer.user.id}/role`, { role: 'admin' })).status).toBe(200);
    await expect.poll(async () => (await anonymous().get(`/api/blog/${post.id}`)).body.author.role).toBe('admin');
    expect((await anonymous().get(`/api/blog/${post.id}`)).body.author).toMatchObject({
      name: 'Wendy Writer',
      firstName: 'Wendy',
      lastName: 'Writer',
    });
  });

  it('previews the sanitised content and the excerpt a save would store, writing nothing', async () => {
    const before = (await staff.get('/api/admin/blog?limit=100')).body.items.length;
    const previews: [body: Record<string, string>, answer: { content: string; excerpt: string; excerptGenerated: boolean }][] = [
      [
        { content: '<h2 style="color:red">Tower</h2><script>alert(1)</script><p>Raised in 1948.</p>', excerpt: '' },
        { content: '<h2>Tower</h2><p>Raised in 1948.</p>', excerpt: 'Tower Raised in 1948.', excerptGenerated: true },
      ],
      [
        { content: '<p>x</p>', excerpt: ' Mine ' },
        { content: '<p>x</p>', excerpt: 'Mine', excerptGenerated: false },
      ],
      [{}, { content: '', excerpt: '', excerptGenerated: true }],
    ];
    for (const [body, answer] of previews) {
      const preview = await staff.post('/api/blog/preview', body);
      expect(preview.status).toBe(200);
      expect(preview.body).toEqual(answer);
    }
    expect((await staff.post('/api/blog/preview', { content: 'x'.repeat(200_001) })).status).toBe(400);
    expect((await staff.get('/api/admin/blog?limit=100')).body.items.length).toBe(before);
  });
});

describe('reading', () => {
  let reading: TestSite;
  let writer: Browser;
  beforeAll(async () => {
    // A site of its own, so the lists hold exactly this block's posts.
    reading = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' });
    writer = (await registerMember(reading.url)).browser;
  });
  afterAll(async () => {
    await reading?.close();
  });
  const reader = () => new Browser(reading.url);
  const write = async (title: string, toggles: string[] = []) => {
    const post = (await writer.post('/api/blog', { title, content: `<p>${title}</p>` })).body as { id: string };
    for (const toggle of toggles) expect((await writer.post(`/api/blog/${post.id}/${toggle}`)).status).toBe(200);
    return post.id;
  };

  it('lists published posts only, pinned first then newest publication first, with featured, pinned and limit filters', async () => {
    const draft = await write('Draft');
    const older = await write('Older', ['publish']);
    const pinned = await write('Pinned', ['publish', 'pin']);
    const featured = await write('Featured', ['publish', 'feature']);
    const newest = await write('Newest', ['publish']);
    const readerSignedIn = (await registerMember(reading.url)).browser;

    for (const who of [reader(), readerSignedIn]) expect(ids(await who.get('/api/blog'))).toEqual([pinned, newest, featured, older]);
    expect(ids(await reader().get('/api/blog?featured=true'))).toEqual([featured]);
    expect(ids(await reader().get('/api/blog?featured=false'))).toEqual([pinned, newest, older]);
    expect(ids(await reader().get('/api/blog?pinned=true'))).toEqual([pinned]);
    expect(ids(await reader().get('/api/blog?pinned=false&featured=false'))).toEqual([newest, older]);
    expect(ids(await reader().get('/api/blog?limit=2'))).toEqual([pinned, newest]);
    for (const bad of ['limit=0', 'limit=101', 'limit=two', 'featured=yes', 'pinned=1'])
      expect([bad, (await reader().get(`/api/blog?${bad}`)).status]).toEqual([bad, 400]);

    // Unpublishing and publishing again keeps the first publication time, so the post keeps its place.
    await writer.post(`/api/blog/${older}/unpublish`);
    expect(ids(await reader().get('/api/blog'))).toEqual([pinned, newest, featured]);
    await writer.post(`/api/blog/${older}/publish`);
    expect(ids(await reader().get('/api/blog'))).toEqual([pinned, newest, featured, older]);

    expect(ids(await writer.get('/api/admin/blog'))).toEqual([newest, featured, pinned, older, draft]);
    const first = (await reader().get('/api/blog')).body.items[0];
    expect(first.author).toMatchObject({
      name: expect.any(String),
      role: 'admin',
      firstName: expect.any(String),
      lastName: expect.any(String),
    });
    expect(Object.keys(first).sort()).toEqual([
      'author',
      'comments',
      'content',
      'createdAt',
      'excerpt',
      'id',
      'isFeatured',
      'isPinned',
      'isPublished',
      'publishAt',
      'publishedAt',
      'slug',
      'tags',
      'title',
      'updatedAt',
    ]);
  });

  it('shows a published post to anyone and a draft only to staff', async () => {
    const draft = await write('Hidden draft');
    const published = await write('Visible', ['publish']);
    const signedIn = (await registerMember(reading.url)).browser;
    for (const who of [reader(), signedIn]) {
      expect((await who.get(`/api/blog/${published}`)).body.title).toBe('Visible');
      const hidden = await who.get(`/api/blog/${draft}`);
      expect(hidden.status).toBe(404);
      expect(hidden.body.message).toBe('Blog post not found');
    }
    expect((await writer.get(`/api/blog/${draft}`)).body.title).toBe('Hidden draft');
    expect((await reader().get(`/api/blog/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await reader().get('/api/blog/not-a-uuid')).status).toBe(404);
  });
});

describe('RSS', () => {
  it('publishes an RSS 2.0 channel of published posts with escaped text and absolute links', async () => {
    const hostile = await create({
      title: 'Fish & <chips> "quoted" ]]> \u0007bell',
      excerpt: 'Less < more & "so" on',
      isPublished: true,
      tags: ['radio'],
    });
    const draft = await create({ title: 'Unpublished draft in RSS' });
    const feed = await anonymous().get('/rss');
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    const xml = feed.body as string;
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0" /);
    expect(xml).toContain(`<link>${PUBLIC_URL}/blog</link>`);
    expect(xml).toContain(`<atom:link href="${PUBLIC_URL}/rss" rel="self" type="application/rss+xml"/>`);
    expect(xml).toContain('<title>Fish &amp; &lt;chips&gt; &quot;quoted&quot; ]]&gt; bell</title>');
    expect(xml).toContain('<description>Less &lt; more &amp; &quot;so&quot; on</description>');
    expect(xml).toContain(`<link>${PUBLIC_URL}/blog/${hostile.slug}</link>`);
    expect(xml).toContain(`<guid isPermaLink="true">${PUBLIC_URL}/blog/${hostile.id}</guid>`);
    expect(xml).toContain('<category>radio</category>');
    expect(xml).toContain('<dc:creator>Sally Editor</dc:creator>');
    expect(xml).not.toContain(draft.id);

    // Structure: every item is closed, holds exactly one of each required element, and each date is an RFC 822 date.
    const items = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((match) => match[1]!);
    const published = (await anonymous().get('/api/blog?limit=100')).body.items as { id: string; slug: string; publishedAt: string }[];
    expect(items).toHaveLength(published.length);
    expect(xml.split('<item>').length - 1).toBe(items.length);
    for (const item of items) {
      for (const element of ['title', 'link', 'guid', 'pubDate', 'description'])
        expect(item.match(new RegExp(`<${element}[ >]`, 'g'))).toHaveLength(1);
      const date = item.match(/<pubDate>([^<]+)<\/pubDate>/)![1]!;
      expect(date).toMatch(
        /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/,
      );
      // Outside markup, no raw '<' or bare '&' can remain.
      expect(item.replace(/<\/?[a-z:]+(?: [a-z]+="[^"<&]*")*\/?>/gi, '')).not.toMatch(/<|&(?!(amp|lt|gt|quot|apos);)/);
    }
    const order = items.map((item) => item.match(/<guid[^>]*>[^<]*\/blog\/([^<]+)<\/guid>/)![1]);
    expect(order).toEqual(
      [...published].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || b.id.localeCompare(a.id)).map((post) => post.id),
    );
  });

  it('answers a reader holding the current version 304 without the feed, and sends a new version once a post changes', async () => {
    const first = await anonymous().get('/rss');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/u);
    const unchanged = await anonymous().request('GET', '/rss', undefined, { 'if-none-match': `W/"other", ${etag}` });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body).toBeUndefined();
    await create({ title: 'A new story for the feed', isPublished: true });
    const changed = await anonymous().request('GET', '/rss', undefined, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body).toContain('A new story for the feed');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

describe('live notices', () => {
  it('tells staff of every change, and members and the public only of published posts', async () => {
    const staffHears = await listen(staff);
    const memberHears = await listen(member);
    const publicHears = await listen();

    const post = await create({ title: 'Announced' });
    await staff.patch(`/api/blog/${post.id}`, { title: 'Announced draft', content: '<p>x</p>' });
    await staff.post(`/api/blog/${post.id}/publish`);
    await staff.post(`/api/blog/${post.id}/pin`);
    await staff.post(`/api/blog/${post.id}/feature`);
    await staff.post(`/api/blog/${post.id}/unpublish`);
    await staff.post(`/api/blog/${post.id}/unpin`);
    await staff.delete(`/api/blog/${post.id}`);

    const drafted = [`created:${post.id}`, `updated:${post.id}`];
    const whilePublic = [`updated:${post.id}`, `updated:${post.id}`, `updated:${post.id}`, `updated:${post.id}`];
    await expect.poll(() => staffHears).toEqual([...drafted, ...whilePublic, `updated:${post.id}`, `removed:${post.id}`]);
    // Unpinning a draft and deleting it concern no reader: the post already left their lists when it was unpublished.
    await expect.poll(() => memberHears).toEqual(whilePublic);
    expect(publicHears).toEqual(whilePublic);
  });
});
