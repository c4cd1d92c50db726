/**
 * The built client as the server sends it: each file as the build's brotli or gzip copy to a client that accepts
 * one (and as it is to one that does not), hashed assets cached for a year as immutable, pages revalidated.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site';
import { staticClosure } from '../support/static-closure';
import { CLIENT_DIR } from '../../server/http/client';

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site?.close();
});

const get = (path: string, encoding: string) => fetch(new URL(path, site.url), { headers: { 'accept-encoding': encoding } });
const mainScript = () => readFileSync(resolve(CLIENT_DIR, 'index.html'), 'utf8').match(/src="(\/assets\/[^"]+\.js)"/u)![1]!;

describe('the built client', () => {
  it('sends a hashed asset as brotli, gzip or as it is, cached for a year as immutable', async () => {
    const path = mainScript();
    const original = readFileSync(resolve(CLIENT_DIR, `.${path}`), 'utf8');
    for (const [accepted, sent] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const response = await get(path, accepted);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(sent);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('content-type')).toMatch(/javascript/u);
      expect(response.headers.get('vary')).toMatch(/accept-encoding/iu);
      expect(await response.text()).toBe(original);
    }
    // What was sent compressed is the build's copy, not compressed again per request.
    const compressed = await fetch(new URL(path, site.url), { headers: { 'accept-encoding': 'br' } }).then((r) =>
      Number(r.headers.get('content-length')),
    );
    expect(compressed).toBe(readFileSync(resolve(CLIENT_DIR, `.${path}.br`)).length);
  });

  it('revalidates the app’s page each time, compressed too', async () => {
    const response = await get('/calendar', 'br');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(await response.text()).toBe(readFileSync(resolve(CLIENT_DIR, 'index.html'), 'utf8'));
    expect((await get('/calendar', 'gzip')).headers.get('cache-control')).toBe('no-cache');
  });

  it('gives a visitor’s landing and sign-in pages the small entry and their own code, never the app’s chunk', async () => {
    for (const path of ['/', '/login']) {
      const html = await (await get(path, 'identity')).text();
      const entry = html.match(/<script type="module"[^>]*src="(\/assets\/[^"]+\.js)"/u)![1]!;
      const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="(\/assets\/[^"]+\.js)"/gu)].map((match) => match[1]!);
      const entryCode = readFileSync(resolve(CLIENT_DIR, `.${entry}`), 'utf8');
      expect(entryCode.length, 'the entry decides and loads the rest').toBeLessThan(8 * 1024);
      // What the entry imports for a visitor there (client/main.tsx): the visitor's pages and the sign-in page.
      const chunk = (name: string) => `/assets/${entryCode.match(new RegExp(`\\./(${name}-[\\w-]{8}\\.js)`, 'u'))![1]!}`;
      const app = chunk('app');
      const loaded = staticClosure([entry, ...preloaded, chunk('visitor'), ...(path === '/login' ? [chunk('sign-in-page')] : [])]);
      expect(loaded.has(app), path).toBe(false);
      for (const file of loaded) {
        const code = readFileSync(resolve(CLIENT_DIR, `.${file}`), 'utf8');
        // Neither the router, nor the socket's client, nor the app's own code.
        expect(code, `${path}: ${file}`).not.toMatch(/scrollRestoration|engine\.io|socket\.io/u);
      }
      // The app's chunk is the one with the router.
      expect(
        [...staticClosure([app])].some((file) => /scrollRestoration/u.test(readFileSync(resolve(CLIENT_DIR, `.${file}`), 'utf8'))),
      ).toBe(true);
    }
  });

  it('compresses the pages written per request (the landing page with its content) and the larger API answers', async () => {
    for (const path of ['/', '/api/openapi.json']) {
      const response = await get(path, 'br, gzip');
      expect(response.headers.get('content-encoding')).toBe('br');
      expect((await response.text()).length).toBeGreaterThan(1024);
    }
    expect((await get('/', 'identity')).headers.get('content-encoding')).toBeNull();
  });
});
