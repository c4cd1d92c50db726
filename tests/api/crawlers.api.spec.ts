/** What crawlers get: robots.txt as plain text naming the sitemap, and a sitemap of the public pages only. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site';
import { Browser } from '../support/http';

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site?.close();
});

describe('crawlers', () => {
  it('get robots.txt as text: the API and members-only paths refused, the sitemap named', async () => {
    const response = await new Browser(site.url).get('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = String(response.body).split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Disallow: /api/',
        'Disallow: /admin',
        'Disallow: /subscription-settings',
        `Sitemap: ${site.services.config.publicUrl}/sitemap.xml`,
      ]),
    );
  });

  it('get a sitemap of the public pages with absolute addresses', async () => {
    const response = await new Browser(site.url).get('/sitemap.xml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const locations = [...String(response.body).matchAll(/<loc>([^<]+)<\/loc>/gu)].map((match) => match[1]);
    expect(locations).toContain(`${site.services.config.publicUrl}/`);
    expect(locations.every((location) => location!.startsWith(site.services.config.publicUrl))).toBe(true);
    expect(locations.some((location) => /\/(?:admin|api|monitoring)/u.test(location!))).toBe(false);
  });
});
