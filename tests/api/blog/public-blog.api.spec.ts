/**
 * The blog as visitors read it (docs/domain/blog.md#public-blog): /blog and /blog/tag/{tag} are server-rendered pages
 * of published posts, newest first, twelve a page with rel=prev/next between pages, each with its title, description,
 * canonical address and feed; an unknown tag is a 404 page; /rss?tag= is the tag's feed; and GET /api/blog answers a
 * guest published posts only. Drafts and scheduled posts appear nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';

let site: TestSite;
let admin: Browser;
let member: Browser;
const visitor = () => new Browser(site.url);
const published: { title: string; slug: string }[] = [];

const links = (html: string, rel: string) =>
  [...html.matchAll(new RegExp(`<link rel="${rel}" href="([^"]+)"`, 'gu'))].map((match) => match[1]!.replace(/&amp;/gu, '&'));
/** The posts' titles a page lists, in its order (each a link to the post's page). */
const listed = (html: string) =>
  [...html.matchAll(/<h2 class="text-xl font-semibold"><a href="\/blog\/[^"]+"[^>]*>([^<]+)<\/a>/gu)].map((match) => match[1]);
const path = (url: string) => url.replace(site.url, '').replace(site.services.config.publicUrl, '');

beforeAll(async () => {
  site = await startTestSite();
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  member = (await registerMember(site.url, { firstName: 'Mona', lastName: 'Member' })).browser;
  // 14 published (oldest first): every one tagged "towers", the even ones "radio" too.
  for (let n = 1; n <= 14; n++) {
    const response = await admin.post('/api/blog', {
      title: `Tower story ${n}`,
      isPublished: true,
      tags: n % 2 === 0 ? ['towers', 'radio'] : ['towers'],
      content: `<p>Story number ${n} of the towers.</p>`,
    });
    expect(response.status).toBe(201);
    published.unshift(response.body);
  }
  await admin.post('/api/blog', { title: 'Draft about towers', tags: ['towers', 'secret'], content: '<p>Not yet.</p>' });
  await admin.post('/api/blog', {
    title: 'Scheduled about towers',
    tags: ['towers', 'secret'],
    content: '<p>Later.</p>',
    publishAt: new Date(Date.now() + 24 * 3600 * 1000).toISOString(),
  });
});
afterAll(async () => {
  await site?.close();
});

describe('the blog page for visitors', () => {
  it('lists twelve published posts, newest first, with a link to the older page and back', async () => {
    const first = await visitor().get('/blog');
    expect(first.status).toBe(200);
    const html = first.body as string;
    expect(listed(html)).toEqual(published.slice(0, 12).map((post) => post.title));
    expect(html).toContain('<title>Blog | Broadcast History Community</title>');
    expect(html).toMatch(/<meta name="description" content="Stories, research and memories[^"]*"/u);
    expect(links(html, 'canonical')).toEqual([`${site.services.config.publicUrl}/blog`]);
    expect(html).toContain('<link rel="alternate" type="application/rss+xml" title="Broadcast History Community blog" href="/rss" />');
    expect(links(html, 'prev')).toEqual([]);
    expect(html).not.toContain('Draft about towers');
    expect(html).not.toContain('Scheduled about towers');
    // Each post: its link, excerpt, date and tags as links to the tag's page.
    expect(html).toContain(`href="/blog/${published[0]!.slug}"`);
    expect(html).toContain('<a href="/blog/tag/radio"');
    expect(html).toMatch(/<time dateTime="[^"]+">[A-Z][a-z]+ \d+, \d{4}<\/time>/u);

    const [next] = links(html, 'next');
    expect(html).toMatch(/<a href="\/blog\?after=[^"]+" rel="next"/u);
    const second = await visitor().get(path(next!));
    expect(second.status).toBe(200);
    expect(listed(second.body)).toEqual(published.slice(12).map((post) => post.title));
    expect(links(second.body, 'next')).toEqual([]);
    expect(links(second.body, 'canonical')).toEqual([next]);
    // Back to the newer page: the first, at the blog's own address.
    expect(links(second.body, 'prev')).toEqual([`${site.services.config.publicUrl}/blog`]);
  });

  it('a tag’s page lists its published posts only, with its own feed; an unknown tag is a 404 page', async () => {
    const radio = await visitor().get('/blog/tag/radio');
    expect(radio.status).toBe(200);
    expect(listed(radio.body)).toEqual(published.filter((_, index) => index % 2 === 0).map((post) => post.title));
    expect(radio.body).toContain('<title>Posts tagged “radio” | Broadcast History Community</title>');
    expect(links(radio.body, 'canonical')).toEqual([`${site.services.config.publicUrl}/blog/tag/radio`]);
    expect(radio.body).toContain(`<link rel="alternate" href="${site.services.config.publicUrl}/rss?tag=radio" type="application/rss+xml"`);

    const towers = await visitor().get('/blog/tag/towers');
    expect(listed(towers.body)).toHaveLength(12);
    expect(towers.body).not.toContain('Draft about towers');
    const older = await visitor().get(path(links(towers.body, 'next')[0]!));
    expect(listed(older.body)).toEqual(published.slice(12).map((post) => post.title));

    for (const unknown of ['/blog/tag/nothing-here', '/blog/tag/secret']) {
      const missing = await visitor().get(unknown);
      expect(missing.status, unknown).toBe(404);
      expect(missing.body).toContain('No posts tagged');
    }
    expect((await visitor().get('/blog/tag/RADIO')).headers.get('location')).toBe('/blog/tag/radio');
    expect((await visitor().get('/blog?after=forged')).status).toBe(404);
  });

  it('a member is served the app’s page, with the page’s head', async () => {
    const page = await member.get('/blog/tag/radio');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.body).not.toContain('data-prerendered');
    expect(page.body).toContain('<title>Posts tagged “radio” | Broadcast History Community</title>');
  });

  it('a post’s page links its tags and the blog', async () => {
    const page = await visitor().get(`/blog/${published[0]!.slug}`);
    expect(page.body).toContain('<a href="/blog/tag/radio"');
    expect(page.body).toContain(
      '<a href="/blog" class="inline-flex min-h-11 items-center font-medium text-brand-600 underline dark:text-amber-accent">Browse More Posts</a>',
    );
    expect(page.body).toMatch(/<a href="\/blog" aria-current="page"/u);
  });
});

describe('feeds and the API for guests', () => {
  it('/rss?tag= lists the tag’s published posts only', async () => {
    const feed = await visitor().get('/rss?tag=radio');
    expect(feed.status).toBe(200);
    const titles = [...(feed.body as string).matchAll(/<item>\s*<title>([^<]+)<\/title>/gu)].map((match) => match[1]);
    expect(titles).toEqual(published.filter((_, index) => index % 2 === 0).map((post) => post.title));
    expect(feed.body).toContain('<title>Broadcast History Community Blog: radio</title>');
    expect(feed.body).toContain(`<link>${site.services.config.publicUrl}/blog/tag/radio</link>`);
    const secret = await visitor().get('/rss?tag=secret');
    expect(secret.body).not.toContain('<item>');
    const all = await visitor().get('/rss');
    expect([...(all.body as string).matchAll(/<item>/gu)]).toHaveLength(14);
  });

  it('GET /api/blog answers a guest published posts only, by tag too', async () => {
    const titles: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { items: { title: string; isPublished: boolean }[]; nextCursor: string | null } } =
        await visitor().get(`/api/blog?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.items.every((post) => post.isPublished)).toBe(true);
      titles.push(...page.body.items.map((post) => post.title));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(titles.sort()).toEqual(published.map((post) => post.title).sort());
    const tagged = await visitor().get('/api/blog?tag=Secret');
    expect(tagged.body.items).toEqual([]);
    const radio = await visitor().get('/api/blog?tag=radio&limit=3');
    expect(radio.body.items.map((post: { title: string }) => post.title)).toEqual(
      published
        .filter((_, i) => i % 2 === 0)
        .slice(0, 3)
        .map((p) => p.title),
    );
    const rest = await visitor().get(`/api/blog?tag=radio&limit=10&cursor=${radio.body.nextCursor}`);
    expect(rest.body.items).toHaveLength(4);
    expect(rest.body.nextCursor).toBeNull();
  });
});
