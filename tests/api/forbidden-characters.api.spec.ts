/**
 * Text with U+0000 or an unpaired surrogate, which PostgreSQL cannot store, is a 400 naming the field wherever it
 * comes in (bodies, query strings, path parameters), never a 500, and nothing of it is stored. Whatever a store
 * still refuses is the caller's 400 too, logged without what was sent.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite, steadyHead } from '../support/site';
import { Browser, registerCast, type Response } from '../support/http';
import { buildApp } from '../../server/app';
import { FORBIDDEN_CHARACTERS_MESSAGE } from '../../shared/text-schema';

let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;
let memberEventId: string;
const guest = () => new Browser(site.url);
const SOME_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  cast = await registerCast(site.url);
  const event = await cast.member.browser.post('/api/events', {
    title: 'Reunion',
    startDate: '2031-05-01T18:00:00Z',
    endDate: '2031-05-01T21:00:00Z',
  });
  expect(event.status).toBe(201);
  memberEventId = event.body.id;
});
afterAll(async () => {
  await site?.close();
});

const BAD_TEXT = { NUL: 'a\u0000b', 'a lone high surrogate': 'a\ud800b', 'a lone low surrogate': 'a\udc00b' };
/** As a browser would encode them: `%ED%A0%80` is U+D800 in the UTF-8 form surrogates would have if they were characters. */
const BAD_QUERY = { NUL: '%00', 'a lone surrogate': '%ED%A0%80', 'bytes that are not UTF-8': '%FF' };

const event = (fields: Record<string, unknown>) => ({
  title: 'Memorial',
  startDate: '2031-06-01T18:00:00Z',
  endDate: '2031-06-01T20:00:00Z',
  ...fields,
});
const registration = (fields: Record<string, unknown>) => ({
  email: 'new.member@example.org',
  password: 'correct horse battery',
  firstName: 'New',
  lastName: 'Member',
  ...fields,
});

type Who = 'guest' | 'member' | 'staff' | 'admin';
/** Each field family: who sends it, where, and the field its answer must name. */
const BODY_FIELDS: [Who, string, string, (bad: string) => unknown, string][] = [
  ['member', 'POST', '/api/posts', (bad) => ({ content: bad }), 'content'],
  ['member', 'POST', '/api/posts', (bad) => ({ content: 'Tags', tags: ['radio', bad] }), 'tags.1'],
  ['member', 'POST', '/api/posts', (bad) => ({ content: 'Link', mediaUrl: `https://example.org/${bad}` }), 'mediaUrl'],
  ['member', 'POST', '/api/posts', (bad) => ({ content: 'Link', mediaUrl: 'https://example.org/', mediaTitle: bad }), 'mediaTitle'],
  ['member', 'POST', `/api/posts/${SOME_ID}/report`, (bad) => ({ reason: bad }), 'reason'],
  ['staff', 'PUT', `/api/admin/posts/${SOME_ID}/reject`, (bad) => ({ reason: bad }), 'reason'],
  ['member', 'POST', '/api/events', (bad) => event({ title: bad }), 'title'],
  ['member', 'POST', '/api/events', (bad) => event({ description: bad }), 'description'],
  ['member', 'POST', '/api/events', (bad) => event({ location: bad }), 'location'],
  ['member', 'POST', '/api/events', (bad) => event({ isVirtual: true, virtualLink: `https://example.org/${bad}` }), 'virtualLink'],
  ['member', 'POST', '/api/events', (bad) => event({ recurrenceRule: bad }), 'recurrenceRule'],
  ['member', 'POST', '/api/events', (bad) => event({ startDate: `2031-06-01${bad}` }), 'startDate'],
  ['member', 'POST', '/api/events', (bad) => event({ maxAttendees: `1${bad}` }), 'maxAttendees'],
  ['member', 'POST', '/api/events', (bad) => event({ tags: [bad] }), 'tags.0'],
  ['member', 'PUT', '/api/events/:memberEvent', (bad) => event({ description: bad }), 'description'],
  ['staff', 'POST', '/api/blog', (bad) => ({ title: bad, content: '<p>Text</p>' }), 'title'],
  ['staff', 'POST', '/api/blog', (bad) => ({ title: 'Title', content: `<p>${bad}</p>` }), 'content'],
  ['staff', 'POST', '/api/blog', (bad) => ({ title: 'Title', content: '<p>Text</p>', excerpt: bad }), 'excerpt'],
  ['staff', 'POST', '/api/blog', (bad) => ({ title: 'Title', content: '<p>Text</p>', tags: [bad] }), 'tags.0'],
  ['staff', 'PATCH', `/api/blog/${SOME_ID}`, (bad) => ({ title: bad, content: '<p>Text</p>' }), 'title'],
  ['staff', 'POST', '/api/blog/preview', (bad) => ({ content: bad }), 'content'],
  ['guest', 'POST', '/api/auth/register', (bad) => registration({ firstName: bad }), 'firstName'],
  ['guest', 'POST', '/api/auth/register', (bad) => registration({ lastName: bad }), 'lastName'],
  ['guest', 'POST', '/api/auth/register', (bad) => registration({ email: `new${bad}@example.org` }), 'email'],
  ['guest', 'POST', '/api/auth/register', (bad) => registration({ password: `correct horse ${bad}` }), 'password'],
  ['guest', 'POST', '/api/auth/login', (bad) => ({ email: 'someone@example.org', password: `correct horse ${bad}` }), 'password'],
  ['guest', 'POST', '/api/auth/magic-link', (bad) => ({ email: `someone${bad}@example.org` }), 'email'],
  [
    'guest',
    'POST',
    '/api/subscribe',
    (bad) => ({ email: `someone${bad}@example.org`, subscriptionType: 'blog_posts', frequency: 'weekly' }),
    'email',
  ],
  ['member', 'PATCH', '/api/me', (bad) => ({ bio: `About me ${bad}` }), 'bio'],
  ['member', 'PATCH', '/api/me', (bad) => ({ firstName: bad }), 'firstName'],
  [
    'member',
    'PUT',
    '/api/me/password',
    (bad) => ({ currentPassword: `correct horse ${bad}`, newPassword: 'another long passphrase' }),
    'currentPassword',
  ],
  ['member', 'POST', '/api/me/email', (bad) => ({ email: `moved${bad}@example.org` }), 'email'],
];
const QUERY_FIELDS: [Who, string, string][] = [
  ['guest', '/api/posts', 'q'],
  ['guest', '/api/posts', 'tag'],
  ['guest', '/api/events', 'q'],
  ['guest', '/api/events', 'from'],
  ['staff', '/api/admin/events/pending', 'to'],
  ['staff', '/api/admin/subscriptions', 'email'],
  ['guest', '/api/blog', 'limit'],
  ['guest', '/api/blog', 'cursor'],
];

function browserOf(who: Who): Browser {
  return who === 'guest' ? guest() : cast[who].browser;
}

function expectFieldRefused(response: Response, field: string, what: string) {
  expect(response.status, what).toBe(400);
  expect(response.body?.fields?.[field], `${what}: ${JSON.stringify(response.body)}`).toBe(FORBIDDEN_CHARACTERS_MESSAGE);
}

describe('text the database cannot store', () => {
  it('is refused with a field message in every body field family, and nothing is stored', async () => {
    const before = await steadyHead(site.services.eventStore);
    for (const [who, method, path, body, field] of BODY_FIELDS) {
      for (const [name, bad] of Object.entries(BAD_TEXT)) {
        const url = path.replace(':memberEvent', memberEventId);
        expectFieldRefused(await browserOf(who).request(method, url, body(bad)), field, `${method} ${url} ${field} with ${name}`);
      }
    }
    expect(await steadyHead(site.services.eventStore)).toBe(before);
  });

  it('is refused with a field message in query strings, encoded as a browser would', async () => {
    for (const [who, path, field] of QUERY_FIELDS) {
      for (const [name, bad] of Object.entries(BAD_QUERY)) {
        expectFieldRefused(await browserOf(who).get(`${path}?${field}=x${bad}y`), field, `${path} ${field} with ${name}`);
      }
    }
    // Escapes that are UTF-8, and a % that starts no escape, are text as before.
    const search = await guest().get(`/api/events?q=${encodeURIComponent('Café 📻')}%ZZ`);
    expect(search.status).toBe(200);
  });

  it('is refused with a field message in url-encoded form bodies, as in query strings', async () => {
    for (const [name, bad] of Object.entries(BAD_QUERY)) {
      const form = `email=new.member%40example.org&password=correct+horse+battery&firstName=x${bad}y&lastName=Member`;
      const response = await guest().request('POST', '/api/auth/register', form, {
        'content-type': 'application/x-www-form-urlencoded',
        origin: site.url,
      });
      expectFieldRefused(response, 'firstName', `form firstName with ${name}`);
    }
  });

  it('is refused with a field message in the path parameters of every API route, and nothing is stored', async () => {
    const before = await steadyHead(site.services.eventStore);
    const withParameters = site.routes.filter((route) => route.url.startsWith('/api/') && route.url.includes('/:'));
    expect(withParameters.length).toBeGreaterThan(10);
    for (const route of withParameters) {
      const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
      const url = route.url.replace(/:(\w+)/g, 'a%00b');
      // Admin, so that no role check answers first.
      const response = await cast.admin.browser.request(route.method, url, route.method === 'GET' ? undefined : {});
      expectFieldRefused(response, names[0]!, `${route.method} ${route.url}`);
      // An encoded lone surrogate in a path is not even a path: fastify refuses it before any route.
      const surrogate = await cast.admin.browser.request(
        route.method,
        route.url.replace(/:(\w+)/g, 'a%ED%A0%80b'),
        route.method === 'GET' ? undefined : {},
      );
      expect(surrogate.status, `${route.method} ${route.url} with a lone surrogate`).toBe(400);
    }
    expect(await steadyHead(site.services.eventStore)).toBe(before);
  });
});

describe('a value a store refuses', () => {
  it('is a 400 "Invalid input", logged at warn without the value', async () => {
    const lines: string[] = [];
    const log = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { app } = await buildApp(site.services, { logger: { level: 'warn', stream: log }, serveClient: false });
    // Stand-ins for an input no schema checked, sent straight to the real stores (outside the API, so hidden from its reference).
    app.post('/test/append', { config: { access: 'public' }, schema: { hide: true } }, async (request) => {
      await site.services.eventStore.append('probe-refused', [{ type: 'Probe', data: request.body }], { expectedVersion: 'any' });
      return {};
    });
    app.post('/test/find', { config: { access: 'public' }, schema: { hide: true } }, async (request) =>
      site.services.store.collection('members').findOne(request.body as Record<string, unknown>),
    );
    try {
      for (const [url, payload] of [
        ['/test/append', { secret: 'written\u0000here' }],
        ['/test/append', { secret: 'written\ud800here' }],
        ['/test/find', { email: 'asked\u0000here' }],
      ] as const) {
        const response = await app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
        expect(response.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
        expect(response.json()).toEqual({ message: 'Invalid input' });
      }
      const refusals = lines
        .map((line) => JSON.parse(line) as { level: number; code: string; msg: string })
        .filter((entry) => entry.msg === 'a store refused the input');
      expect(refusals).toHaveLength(3);
      expect(refusals.map((entry) => [entry.level, entry.code])).toEqual([
        [40, '22P05'],
        [40, '22P02'],
        [40, 'unstorable-text'],
      ]);
      expect(lines.join('\n')).not.toMatch(/written|asked/);
      expect(await site.services.eventStore.readStream('probe-refused')).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
