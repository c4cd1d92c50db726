/**
 * Lighthouse on the built site (issue 20): search-engine optimisation and best practices score 100 on the landing
 * page, a blog post and an event page, as a phone reads them. The blog as a visitor reads it (issue 37: /blog and a
 * long post) scores at least 95 for performance and 100 for the rest, as Ghost's does; other speed figures are
 * reported by `npm run bench`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site';
import { registerMember } from '../support/http';
import { lighthouseAudit } from '../support/lighthouse';

let site: TestSite;
const pages: Record<string, string> = { landing: '/' };

beforeAll(async () => {
  site = await startTestSite();
  const admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  pages['blog post'] =
    `/blog/${(await admin.post('/api/blog', { title: 'The Night the Tower Fell', isPublished: true, content: '<p>Storm winds took the tower down in 1974; engineers had the station back on the air by dawn.</p>' })).body.id}`;
  // A long post (200 sentences) and enough posts for the blog's page to be full.
  const sentence = (n: number) =>
    `In ${1920 + (n % 80)} the station's engineers kept the transmitter on the air through the long winter storm.`;
  const paragraphs = Array.from({ length: 20 }, (_, p) => `<p>${Array.from({ length: 10 }, (_, s) => sentence(p * 10 + s)).join(' ')}</p>`);
  pages['long post'] =
    `/blog/${(await admin.post('/api/blog', { title: 'Twenty Winters on the Air', isPublished: true, tags: ['towers'], content: paragraphs.join('') })).body.slug}`;
  for (let n = 1; n <= 12; n++)
    await admin.post('/api/blog', { title: `Tower story ${n}`, isPublished: true, tags: ['towers'], content: `<p>${sentence(n)}</p>` });
  pages.blog = '/blog';
  const start = new Date(Date.now() + 10 * 24 * 3600 * 1000);
  pages.event = `/events/${(await admin.post('/api/events', { title: 'WAVE Alumni Reunion', eventType: 'reunion', location: 'Louisville Palace', description: 'Bring your old station badges.', startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600 * 1000).toISOString() })).body.id}`;
});
afterAll(async () => {
  await site?.close();
});

describe('Lighthouse', () => {
  for (const name of ['landing', 'blog post', 'event'])
    it(`scores 100 for SEO and best practices on the ${name} page`, async () => {
      const { scores, failures } = await lighthouseAudit(`${site.url}${pages[name]}`, ['seo', 'best-practices']);
      expect(failures).toEqual([]);
      expect(scores).toEqual({ seo: 100, 'best-practices': 100 });
    }, 120_000);

  for (const name of ['blog', 'long post'])
    it(`scores at least 95 for performance and 100 for the rest on the ${name} page, as a visitor on a phone`, async () => {
      const { scores, failures } = await lighthouseAudit(`${site.url}${pages[name]}`, [
        'performance',
        'accessibility',
        'seo',
        'best-practices',
      ]);
      expect(failures.filter((failure) => !failure.startsWith('performance:'))).toEqual([]);
      expect(scores).toMatchObject({ accessibility: 100, seo: 100, 'best-practices': 100 });
      expect(scores.performance, failures.join('\n')).toBeGreaterThanOrEqual(95);
    }, 120_000);
});
