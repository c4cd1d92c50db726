/**
 * The public site's pages through HTTP: built-in text until an admin edits it, Markdown rendered and sanitised,
 * only admins may edit, and the sitemap dates an edited page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerCast } from '../support/http';
import { SITE_PAGE_SLUGS } from '../../shared/site-pages/schemas';
import { DEFAULT_SITE_PAGES } from '../../shared/site-pages/defaults';

let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;
const anonymous = () => new Browser(site.url);

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' });
  cast = await registerCast(site.url);
});
afterAll(async () => {
  await site?.close();
});

describe('site pages', () => {
  it('shows every page’s built-in text to anyone, rendered from Markdown', async () => {
    const all = await anonymous().get('/api/pages');
    expect(all.status).toBe(200);
    expect(all.body.map((page: { slug: string }) => page.slug)).toEqual([...SITE_PAGE_SLUGS]);
    const privacy = await anonymous().get('/api/pages/privacy');
    expect(privacy.body).toMatchObject({
      slug: 'privacy',
      title: DEFAULT_SITE_PAGES.privacy.title,
      body: DEFAULT_SITE_PAGES.privacy.body,
      updatedAt: null,
    });
    expect(privacy.body.html).toContain('<h2>What we collect</h2>');
    expect(privacy.body.html).toContain('<a href="/contact" rel="noopener noreferrer">Contact us</a>');
    expect((await anonymous().get('/api/pages/nowhere')).status).toBe(404);
  });

  it('lets an admin edit a page, sanitising what the Markdown carries', async () => {
    const body =
      '## Who we are\n\nVolunteers <script>window.__pwned = 1</script> and [a link](javascript:alert(1)) <img src=x onerror=alert(1)> **friends**.';
    const edited = await cast.admin.browser.put('/api/pages/about', { title: '  About us  ', body });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ slug: 'about', title: 'About us', body });
    expect(edited.body.updatedAt).toEqual(expect.any(String));
    const { html } = edited.body as { html: string };
    expect(html).toContain('<h2>Who we are</h2>');
    expect(html).toContain('<strong>friends</strong>');
    expect(html).not.toMatch(/script|javascript:|onerror|__pwned/u);
    expect((await anonymous().get('/api/pages/about')).body).toEqual(edited.body);

    const preview = await cast.admin.browser.post('/api/pages/preview', {
      body: '# Title\n\n<iframe src="https://example.org"></iframe>Text',
    });
    expect(preview.body.html).toContain('<h1>Title</h1>');
    expect(preview.body.html).not.toContain('iframe');
  });

  it('refuses staff, members and visitors, and says which field is wrong', async () => {
    const change = { title: 'Taken over', body: 'Nothing here.' };
    expect((await anonymous().put('/api/pages/terms', change)).status).toBe(401);
    for (const who of [cast.staff, cast.member, cast.subscriber])
      expect((await who.browser.put('/api/pages/terms', change)).status).toBe(403);
    expect((await cast.member.browser.post('/api/pages/preview', { body: 'x' })).status).toBe(403);
    const empty = await cast.admin.browser.put('/api/pages/terms', { title: '', body: 'x'.repeat(50_001) });
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.fields).sort()).toEqual(['body', 'title']);
    expect((await cast.admin.browser.put('/api/pages/nowhere', change)).status).toBe(404);
    expect((await anonymous().get('/api/pages/terms')).body.title).toBe(DEFAULT_SITE_PAGES.terms.title);
  });

  it('lists every page in the sitemap, with the date of its last edit', async () => {
    const about = (await anonymous().get('/api/pages/about')).body as { updatedAt: string };
    const sitemap = String((await anonymous().get('/sitemap.xml')).body);
    for (const slug of SITE_PAGE_SLUGS) expect(sitemap).toContain(`<loc>${site.services.config.publicUrl}/${slug}</loc>`);
    expect(sitemap).toContain(`<loc>${site.services.config.publicUrl}/about</loc>\n    <lastmod>${about.updatedAt}</lastmod>`);
  });
});
