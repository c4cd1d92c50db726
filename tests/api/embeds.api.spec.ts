/**
 * Embeds over HTTP: which pages other sites may frame, the loader script, and
 * the public change notices the live widgets follow (an anonymous socket, as an
 * embed connects).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';
import { WIDGET_NAMES } from '../../client/embed/widgets';
import { CLIENT_DIR } from '../../server/http/client';
import { THEME_SCRIPT_SOURCE } from '../../server/http/security-headers';

let site: TestSite;
let admin: Browser;
let member: Browser;
const sockets: Socket[] = [];
const anonymous = () => new Browser(site.url);

const EMBED_PAGES = [
  '/embed',
  '/embed?limit=3&transparent=1',
  '/embed/simple',
  '/embed/ultra',
  '/embed/compact',
  '/embed/minimal',
  '/embed/calendar?featured=true',
  '/embed/blog?bg=transparent',
  '/embed/blog/00000000-0000-4000-8000-000000000000',
];
const FRAMING_REFUSED = [
  '/',
  '/calendar',
  '/admin/widgets',
  '/monitoring',
  '/embed.js',
  '/embed.html',
  '/embed/unknown',
  '/embed/blog/a/b',
  '/embedded',
  '/api/posts',
  '/api/blog',
  '/healthz',
];

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '10000' });
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  member = (await registerMember(site.url, { firstName: 'Mona', lastName: 'Member' })).browser;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await site?.close();
});

/** The Content-Security-Policy as directive → value. */
const policy = (headers: Headers) =>
  Object.fromEntries(
    (headers.get('content-security-policy') ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values.join(' ')]),
  );
/** What docs/architecture.md#http-conventions asks of every page: only our own scripts, no plugins, no base-URL tricks. */
const STRICT = { 'default-src': "'self'", 'script-src': "'self'", 'object-src': "'none'", 'base-uri': "'self'" };

describe('framing', () => {
  it('lets any site frame every embed route, served as the light embed page', async () => {
    const embedPage = readFileSync(resolve(CLIENT_DIR, 'embed.html'), 'utf8');
    for (const path of EMBED_PAGES) {
      const response = await anonymous().get(path);
      expect(response.status, path).toBe(200);
      expect(policy(response.headers), path).toMatchObject({ ...STRICT, 'frame-ancestors': '*' });
      expect(response.headers.get('x-frame-options'), path).toBeNull();
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(response.body, path).toBe(embedPage);
    }
  });

  it("refuses framing everywhere else: frame-ancestors 'none' and X-Frame-Options DENY", async () => {
    for (const path of FRAMING_REFUSED) {
      const response = await anonymous().get(path);
      // The app's pages may also run the theme script inline, by its hash alone.
      expect(policy(response.headers), path).toMatchObject({
        ...STRICT,
        'script-src': `'self' ${THEME_SCRIPT_SOURCE}`,
        'frame-ancestors': "'none'",
      });
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
    }
    // An unknown /embed path is not a widget: it gets the app (and its not-found page), not the embed page.
    expect((await anonymous().get('/embed/unknown')).body).toBe(readFileSync(resolve(CLIENT_DIR, 'index.html'), 'utf8'));
  });
});

describe('the loader', () => {
  it('is served as cacheable JavaScript with an ETag, revalidated with a 304', async () => {
    const response = await anonymous().get('/embed.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(response.body).toContain("'bhc:resize'");
    expect(Buffer.byteLength(response.body)).toBeLessThan(4096);
    const again = await anonymous().request('GET', '/embed.js', undefined, { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  it('knows every widget of the catalogue, and no other', async () => {
    const { body } = await anonymous().get('/embed.js');
    const paths = /var PATHS = (\{[^}]+\})/.exec(body)![1]!;
    const names = [...paths.matchAll(/'?([\w-]+)'?:/g)].map((match) => match[1]);
    expect(names.sort()).toEqual([...WIDGET_NAMES].sort());
  });
});

describe('what live embeds hear', () => {
  async function anonymousSocket() {
    const socket = io(site.url, { path: '/socket.io', transports: ['websocket'] });
    sockets.push(socket);
    const heard: string[] = [];
    for (const message of ['posts:changed', 'events:changed', 'rsvp:changed', 'blog:changed'])
      socket.on(message, (payload: { id?: string; eventId?: string }) => heard.push(`${message} ${payload.id ?? payload.eventId}`));
    await new Promise<void>((done, fail) => {
      socket.once('connect', () => done());
      socket.once('connect_error', fail);
    });
    return heard;
  }

  it('hears of an approved post, a public event, an RSVP and a published blog post, never of pending or draft ones', async () => {
    const heard = await anonymousSocket();
    const pending = (await member.post('/api/posts', { content: 'From the transmitter hall' })).body.id as string;
    const draft = (await admin.post('/api/blog', { title: 'Draft', content: '<p>Not yet</p>' })).body.id as string;
    const memberEvent = (
      await member.post('/api/events', {
        title: 'Engineers lunch',
        eventType: 'reunion',
        startDate: '2030-01-10T18:00:00.000Z',
        endDate: '2030-01-10T20:00:00.000Z',
      })
    ).body.id as string;
    // Notices of one process arrive in order: once a later public one is heard, the earlier private ones were not sent here.
    const marker = (await admin.post('/api/posts', { content: 'Marker' })).body.id as string;
    await expect.poll(() => heard).toContain(`posts:changed ${marker}`);
    expect(heard.join('\n')).not.toMatch(new RegExp(`${pending}|${draft}|${memberEvent}`));

    await admin.put(`/api/admin/posts/${pending}/approve`);
    await admin.post(`/api/blog/${draft}/publish`);
    await admin.put(`/api/admin/events/${memberEvent}/approve`);
    await admin.put(`/api/events/${memberEvent}/rsvp/me`, { status: 'attending' });
    await expect
      .poll(() => heard)
      .toEqual(
        expect.arrayContaining([
          `posts:changed ${pending}`,
          `blog:changed ${draft}`,
          `events:changed ${memberEvent}`,
          `rsvp:changed ${memberEvent}`,
        ]),
      );
  });
});
