/**
 * Public reads carry a strong ETag of their body and answer 304 to it (server/http/etag.ts, issue 21): guests'
 * answers may be kept by any cache that revalidates, members' only by their own browser; a change gives a new
 * tag; compressed and HEAD answers carry the same tag as the plain GET.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';

let site: TestSite;
let admin: Browser;
let blogId: string;
/** The post's page is at its slug. */
let blogSlug: string;

beforeAll(async () => {
  site = await startTestSite();
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  await admin.post('/api/posts', { content: 'The first post of the feed' });
  ({ id: blogId, slug: blogSlug } = (
    await admin.post('/api/blog', {
      title: 'Towers of the Ohio Valley',
      isPublished: true,
      content: `<p>${'Steel and guy wires. '.repeat(100)}</p>`,
    })
  ).body);
});
afterAll(async () => {
  await site?.close();
});

const guest = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(new URL(path, site.url), { method, headers });

describe('ETags on public reads', () => {
  it('tag each public GET, which a guest’s cache revalidates, and answer 304 to the tag', async () => {
    for (const path of [
      '/api/posts?limit=10',
      '/api/blog',
      `/api/blog/${blogId}`,
      '/api/events',
      '/api/calendar.ics',
      '/',
      `/blog/${blogSlug}`,
    ]) {
      const first = await guest(path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag, path).toMatch(/^"[\w-]{27}"$/u);
      expect(first.headers.get('vary'), path).toMatch(/accept-encoding/iu);
      expect(first.headers.get('cache-control'), path).toMatch(/^(?:public, max-age=0, must-revalidate|no-cache)$/u);
      // The same answer again has the same tag; asked with it, no body.
      expect((await guest(path)).headers.get('etag'), path).toBe(etag);
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`]) {
        const again = await guest(path, { 'if-none-match': ifNoneMatch });
        expect(again.status, `${path} ${ifNoneMatch}`).toBe(304);
        expect(await again.text()).toBe('');
        expect(again.headers.get('etag')).toBe(etag);
      }
      expect((await guest(path, { 'if-none-match': '"other"' })).status, path).toBe(200);
    }
  });

  it('give a new tag once the answer changes', async () => {
    const before = (await guest('/api/posts?limit=10')).headers.get('etag')!;
    await admin.post('/api/posts', { content: 'A newer post' });
    const after = await guest('/api/posts?limit=10', { 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
    expect(JSON.stringify(await after.json())).toContain('A newer post');
  });

  it('tag the body as it is before compression, and HEAD alike', async () => {
    // An API answer, and a public page (its HTML kept encoded while the read models stay where they are).
    for (const path of [`/api/blog/${blogId}`, `/blog/${blogSlug}`]) {
      const plain = await guest(path, { 'accept-encoding': 'identity' });
      expect(plain.headers.get('content-encoding'), path).toBeNull();
      const etag = plain.headers.get('etag')!;
      const body = await plain.text();
      for (const encoding of ['br', 'gzip']) {
        const compressed = await guest(path, { 'accept-encoding': encoding });
        expect(compressed.headers.get('content-encoding'), path).toBe(encoding);
        expect(compressed.headers.get('etag'), path).toBe(etag);
        expect(compressed.headers.get('vary'), path).toMatch(/accept-encoding/iu);
        expect(await compressed.text(), path).toBe(body);
        expect((await guest(path, { 'accept-encoding': encoding, 'if-none-match': etag })).status, path).toBe(304);
      }
      const head = await guest(path, {}, 'HEAD');
      expect(head.status, path).toBe(200);
      expect(head.headers.get('etag'), path).toBe(etag);
      expect((await guest(path, { 'if-none-match': etag }, 'HEAD')).status, path).toBe(304);
    }
  });

  it('keep a member’s answers out of shared caches', async () => {
    const answer = await admin.get('/api/posts?limit=10');
    expect(answer.status).toBe(200);
    const etag = answer.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/u);
    expect(answer.headers.get('cache-control')).toBe('private, no-cache');
    expect((await admin.request('GET', '/api/posts?limit=10', undefined, { 'if-none-match': etag })).status).toBe(304);
    const page = await admin.get(`/blog/${blogSlug}`);
    expect(page.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('leave alone what is not a public read, and say so in the API reference', async () => {
    expect((await admin.get('/api/notifications')).headers.get('etag')).toBeNull();
    // Health probes answer for this moment: never cached, never tagged.
    for (const probe of ['/healthz', '/readyz']) {
      const answer = await guest(probe);
      expect(answer.headers.get('etag'), probe).toBeNull();
      expect(answer.headers.get('cache-control'), probe).toBe('no-store');
    }
    const rss = await guest('/rss');
    expect(rss.headers.get('etag')).toMatch(/^"/u);
    const api = (await (await guest('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(api.paths['/api/posts']!.get!.responses)).toContain('304');
    expect(Object.keys(api.paths['/api/blog/{id}']!.get!.responses)).toContain('304');
  });
});
