/**
 * Lighthouse on the built site (issue 20): search-engine optimisation and best practices score 100 on the landing
 * page, a blog post and an event page, as a phone reads them. Speed is reported by `npm run bench`, not here.
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
});
