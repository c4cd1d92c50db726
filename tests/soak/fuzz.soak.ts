/**
 * Property-based fuzzing of the whole HTTP surface: requests generated from the route table (every route and
 * method, HEAD for GET routes) as a guest, a member, staff and an admin, with odd path ids, query values, bodies,
 * content types, origins, headers and cookies. Any 5xx fails, as does a request without an answer within
 * REQUEST_TIMEOUT_MS; an error the process leaves unhandled fails the run (vitest reports it). No fixed seed: every
 * run explores new inputs, and a failure prints the seed and the shrunk requests that replay it (`fc.assert` does).
 *
 * The callers stay who they are for the whole run: no generated id is a caller's own (so nobody suspends or demotes
 * themselves), and a caller whose session a sign-in or sign-out route replaced is signed in again.
 *
 * Then a sweep: every cased letter of every script (2,952 in Unicode 15, É Σ ς Å Deseret and the rest) in every
 * search field, each in one of its cases, in batches of SWEEP_BATCH (cheap reads: about a third of the run's time).
 * At least MIN_REQUESTS in all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../support/site';
import { registerCast } from '../support/http';
import { ROLES, type Role } from '../../shared/domain';
import { subscriptionToken } from '../../platform/mail/link-tokens';
import type { RouteAccess } from '../../server/http/access';

/** Requests per run: batches of BATCH requests in flight together, as a busy site gets them. */
const BATCHES = 2_500;
const BATCH = 4;
const SWEEP_BATCH = 16;
const MIN_REQUESTS = 20_000;
let sent = 0;
const REQUEST_TIMEOUT_MS = 10_000;
/** Routes that replace or end the caller's session: after one succeeds, the caller's session is checked and restored. */
const SESSION_ROUTES = /^\/api\/(?:auth\/(?:register|login|magic\/:token)|logout)$/u;

type Caller = 'guest' | 'member' | 'staff' | 'admin';
interface Account {
  role: Role;
  email: string;
  password: string;
  cookie: string;
}

let site: TestSite;
const accounts = new Map<Exclude<Caller, 'guest'>, Account>();
/**
 * Ids and tokens that exist, by kind, so that requests reach past the lookups; what the run creates joins them.
 * Never a caller's own member id: the fuzzer would suspend or demote itself.
 */
const pools = {
  posts: [] as string[],
  events: [] as string[],
  blog: [] as string[],
  comments: [] as string[],
  subscriptions: [] as string[],
  tokens: [] as string[],
  mails: [] as string[],
  members: [] as string[],
  categories: [] as string[],
  topics: [] as string[],
  replies: [] as string[],
};
type Pool = keyof typeof pools;
/** The pool a route's path parameters come from, by its path. */
const POOL_OF_PATH: [RegExp, Pool][] = [
  [/^\/api\/(?:admin\/)?posts\//u, 'posts'],
  [/^\/(?:api\/(?:admin\/)?)?events\/:/u, 'events'],
  [/^\/(?:api\/)?blog\//u, 'blog'],
  [/^\/api\/comments\//u, 'comments'],
  [/^\/api\/members\//u, 'members'],
  [/^\/api\/subscriptions\//u, 'subscriptions'],
  [/^\/(?:api\/)?(?:unsubscribe|subscribe\/confirm)\//u, 'tokens'],
  [/^\/api\/admin\/mailbox\//u, 'mails'],
  [/^\/api\/admin\/users\//u, 'members'],
  [/^\/api\/(?:admin\/)?topics\//u, 'topics'],
  [/^\/api\/replies\//u, 'replies'],
  [/^\/api\/admin\/categories\//u, 'categories'],
];
/** The pool what a creating route answers with joins. */
const POOL_OF_CREATED: Partial<Record<string, Pool>> = {
  '/api/posts': 'posts',
  '/api/events': 'events',
  '/api/blog': 'blog',
  '/api/posts/:id/comments': 'comments',
  '/api/blog/:id/comments': 'comments',
  '/api/subscriptions': 'subscriptions',
  '/api/auth/register': 'members',
  '/api/admin/categories': 'categories',
  '/api/topics': 'topics',
  '/api/topics/:id/replies': 'replies',
};
/** Routes whose first path parameter is a kind, not an id: mostly one of the kinds, so the id after it is looked up. */
const KINDS_OF_PATH: [RegExp, string[]][] = [
  [/^\/api\/bookmarks\//u, ['post', 'event', 'blog']],
  [/^\/api\/admin\/reports\//u, ['post', 'comment', 'topic', 'reply']],
];
/** Only the newest are kept, so that picks stay spread over ids that still exist. */
const POOL_SIZE = 30;

function remember(pool: Pool, id: string) {
  pools[pool].push(id);
  if (pools[pool].length > POOL_SIZE) pools[pool].shift();
  if (pool === 'subscriptions') remember('tokens', subscriptionToken(site.services.config.subscriptionLinkSecret, id));
}

async function signIn(account: Pick<Account, 'email' | 'password'>): Promise<string> {
  const response = await site.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: account.email, password: account.password },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in of ${account.email} failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'bhc.sid');
  return `bhc.sid=${cookie!.value}`;
}

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  const cast = await registerCast(site.url);
  for (const caller of ['admin', 'staff', 'member'] as const) {
    const { account } = cast[caller];
    accounts.set(caller, { role: caller, email: account.email, password: account.password, cookie: await signIn(account) });
  }
  const staffPost = await cast.staff.browser.post('/api/posts', { content: 'Approved post', tags: ['radio'] });
  const memberPost = await cast.member.browser.post('/api/posts', { content: 'Pending post' });
  const event = await cast.member.browser.post('/api/events', {
    title: 'Reunion',
    startDate: '2031-05-01T18:00:00Z',
    endDate: '2031-05-01T21:00:00Z',
    maxAttendees: 3,
  });
  await cast.staff.browser.put(`/api/admin/events/${event.body.id}/approve`);
  const blog = await cast.staff.browser.post('/api/blog', { title: 'History', content: '<p>Text</p>', isPublished: true });
  const subscription = await cast.member.browser.post('/api/subscriptions', { subscriptionType: 'newsfeed', frequency: 'daily' });
  const comment = await cast.member.browser.post(`/api/posts/${staffPost.body.id}/comments`, { content: 'A comment' });
  const category = await cast.staff.browser.post('/api/admin/categories', { name: 'Memories' });
  const topic = await cast.member.browser.post('/api/topics', { title: 'A first topic', content: 'Text', categoryId: category.body.id });
  const reply = await cast.other.browser.post(`/api/topics/${topic.body.id}/replies`, { content: 'A reply' });
  await cast.other.browser.post('/api/auth/magic-link', { email: cast.other.account.email });
  const mail = await site.services.mailbox.waitFor((m) => m.to.includes(cast.other.account.email));
  for (const response of [staffPost, memberPost, event, blog, subscription, comment, category, topic, reply])
    expect(response.status).toBe(201);
  for (const [pool, id] of [
    ['posts', staffPost.body.id],
    ['posts', memberPost.body.id],
    ['events', event.body.id],
    ['blog', blog.body.id],
    ['subscriptions', subscription.body.id],
    ['comments', comment.body.id],
    ['categories', category.body.id],
    ['topics', topic.body.id],
    ['replies', reply.body.id],
    ['mails', mail.id],
    ['members', cast.other.user.id],
    ['members', cast.subscriber.user.id],
  ] as const)
    remember(pool, id);
}, 120_000);
afterAll(async () => {
  await site?.close();
});

/** Percent-encodes any JS string, lone surrogates too (as the UTF-8 bytes they would have, e.g. %ED%A0%80). */
function percentEncode(text: string): string {
  let encoded = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else encoded += encodeURIComponent(char);
  }
  return encoded;
}

const ODD_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '📻',
  '\u202eevil',
  '\ufeff',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '$where',
  '{"$gt":""}',
  '../../etc/passwd',
  'null',
  'true',
  '1e309',
  '-0',
  'NaN',
  '__proto__',
  'constructor',
];
/** Short odd text, for anywhere (paths and query strings too). */
const oddText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_TEXT) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constant('x'.repeat(300)) },
);
/** Text past every field's limit, for bodies, now and then ending in a NUL. */
const hugeText = fc
  .tuple(fc.constantFrom(5_001, 20_000, 250_000), fc.boolean())
  .map(([length, nul]) => `${'x'.repeat(length - 1)}${nul ? '\u0000' : 'x'}`);
/** An odd value for a body field; the large ones rarely, as they cost the most time per request. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 12, arbitrary: oddText },
  { weight: 1, arbitrary: hugeText },
  { weight: 3, arbitrary: fc.constantFrom(0, -1, 1, 1.5, 101, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, true, false, null) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.array(oddText, { maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(50, 5_000).map((count) => Array.from({ length: count }, (_, i) => `tag${i}`)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const iso = (date: Date) => date.toISOString();
/** Dates at and past the ends of what JavaScript can hold, and strings Date.parse reads surprisingly. */
const EDGE_DATES = [
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '0000-01-01',
  '9999-12-31T23:59:59Z',
  '2031-02-30',
  '2031-01-01T00:00:00+14:00',
  '1',
  '0',
  'Tuesday',
];
const eventDate = fc.oneof(
  { weight: 4, arbitrary: fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }).map(iso) },
  { weight: 1, arbitrary: fc.constantFrom(...EDGE_DATES) },
);
/** What each field of the site's bodies plausibly holds, so that generated bodies often pass validation and reach the domain. */
const PLAUSIBLE: Record<string, fc.Arbitrary<unknown>> = {
  content: fc.constantFrom('Fuzzed words', '<p>An <b>article</b> <a href="/api/x">link</a></p>'),
  title: fc.constantFrom('A title', 'Reunion of WGN engineers'),
  excerpt: fc.constantFrom('', 'Short'),
  description: fc.constant('About the event'),
  location: fc.constant('Chicago'),
  tags: fc.array(fc.constantFrom('radio', 'tv', '#WGN', 'x'.repeat(41)), { maxLength: 12 }),
  email: fc.oneof(
    fc.constantFrom('someone@example.org'),
    fc.nat().map((n) => `fuzz${n}@example.org`),
  ),
  // Never the callers' own: DELETE /api/me with it would erase them (it is refused with any other).
  password: fc.constantFrom('another horse battery', 'short'),
  currentPassword: fc.constant('correct horse battery'),
  // The same as the current one: a password change that succeeds leaves the fuzzer able to sign in again.
  newPassword: fc.constant('correct horse battery'),
  firstName: fc.constant('Fuzz'),
  lastName: fc.constant('Tester'),
  role: fc.constantFrom(...ROLES),
  status: fc.constantFrom('attending', 'maybe', 'not_attending'),
  subscriptionType: fc.constantFrom('blog_posts', 'newsfeed', 'all'),
  frequency: fc.constantFrom('immediate', 'daily', 'weekly'),
  isActive: fc.boolean(),
  startDate: eventDate,
  endDate: eventDate,
  eventType: fc.constantFrom('reunion', 'memorial', 'anniversary', 'other'),
  maxAttendees: fc.integer({ min: 1, max: 5 }),
  isPublic: fc.boolean(),
  isVirtual: fc.boolean(),
  virtualLink: fc.constant('https://meet.example.org/x'),
  allDay: fc.boolean(),
  mediaType: fc.constantFrom('image', 'video', 'youtube', 'link'),
  mediaUrl: fc.constantFrom('https://example.org/a.jpg', 'https://youtu.be/dQw4w9WgXcQ'),
  mediaTitle: fc.constant('Media'),
  reason: fc.constant('Spam'),
  featured: fc.boolean(),
  isPublished: fc.boolean(),
  isPinned: fc.boolean(),
  isFeatured: fc.boolean(),
  'List-Unsubscribe': fc.constant('One-Click'),
};
/** Some of the site's body fields: half the time all plausible (to reach the domain), else some odd and some nobody asked for. */
const fields = fc.oneof(
  fc.record(PLAUSIBLE, { requiredKeys: [] }),
  fc
    .tuple(
      // A new password stays the callers' own, odd or not: an odd one that the site accepts would lock the fuzzer out.
      fc.record(
        Object.fromEntries(
          Object.entries(PLAUSIBLE).map(([name, plausible]) => [name, name === 'newPassword' ? plausible : fc.oneof(plausible, oddValue)]),
        ),
        { requiredKeys: [] },
      ),
      fc.dictionary(fc.string({ maxLength: 10 }), oddValue, { maxKeys: 2 }),
    )
    .map(([known, extra]) => ({ ...extra, ...known })),
);

const MALFORMED_JSON = [
  '{',
  '{"content":',
  '{"a":1,}',
  "{'a':1}",
  'nul',
  'undefined',
  '[',
  '"unterminated',
  '{"a":"\\u00"}',
  '\u0000',
  '{"__proto__":{"role":"admin"}}',
  '{"constructor":{"prototype":{"role":"admin"}}}',
  '[]',
  '1',
  '"text"',
  'null',
  'true',
];
type Body = { kind: 'none' } | { kind: 'fields'; fields: Record<string, unknown> } | { kind: 'raw'; text: string };
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 6, arbitrary: fields.map((f): Body => ({ kind: 'fields', fields: f })) },
  { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        { weight: 3, arbitrary: fc.constantFrom(...MALFORMED_JSON) },
        { weight: 3, arbitrary: fc.json({ maxDepth: 2 }) },
        { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
        // Deeply nested, and past the body limit.
        { weight: 1, arbitrary: fc.constantFrom(`${'['.repeat(5_000)}${']'.repeat(5_000)}`, `{"content":"${'x'.repeat(1_100_000)}"}`) },
      )
      .map((text): Body => ({ kind: 'raw', text })),
  },
);
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'multipart/form-data',
  'application/xml',
  'application/jsonx',
  '',
  undefined,
] as const;

/** The bytes of a body as the content type says, or as something else when the fuzzer lies about it. */
function payloadOf(value: Body, contentType: string | undefined): string | undefined {
  if (value.kind === 'none') return undefined;
  if (value.kind === 'raw') return value.text;
  const type = contentType?.toLowerCase() ?? '';
  const flat = Object.entries(value.fields).map(
    ([name, field]) => [name, typeof field === 'string' ? field : (JSON.stringify(field) ?? '')] as const,
  );
  if (type.startsWith('application/x-www-form-urlencoded'))
    return flat.map(([name, field]) => `${percentEncode(name)}=${percentEncode(field)}`).join('&');
  if (type.startsWith('multipart/form-data'))
    return `${flat.map(([name, field]) => `--fuzz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${field}\r\n`).join('')}--fuzz--\r\n`;
  return JSON.stringify(value.fields);
}

const ODD_SEGMENTS = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%FF',
  '%C0%80',
  '%',
  '%25',
  '..',
  '.',
  '%2F',
  '%2e%2e%2f',
  'null',
  '0',
  '-1',
  'NaN',
  '__proto__',
  'constructor',
  '00000000-0000-4000-8000-000000000000',
  'x'.repeat(150),
];
/** A path parameter of the route at `url`: mostly an id that exists there (or a kind), else anything a path can carry. */
const segment = (url: string, index: number) => {
  const pool = POOL_OF_PATH.find(([path]) => path.test(url))?.[1];
  const kinds = index === 0 ? KINDS_OF_PATH.find(([path]) => path.test(url))?.[1] : undefined;
  const existing = () => (pool ? pools[pool] : Object.values(pools).flat());
  if (kinds)
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...kinds) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_SEGMENTS) });
  return fc.oneof(
    { weight: 4, arbitrary: fc.nat().map((pick) => percentEncode(existing()[pick % existing().length]!)) },
    { weight: 1, arbitrary: fc.uuid().map(percentEncode) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
    { weight: 2, arbitrary: oddText.map(percentEncode) },
  );
};

const QUERY_KEYS = [
  'limit',
  'cursor',
  'q',
  'tag',
  'filter',
  'from',
  'to',
  'type',
  'featured',
  'pinned',
  'status',
  'sort',
  'email',
  'online',
];
const PLAUSIBLE_QUERY = [
  '1',
  '10',
  '100',
  '0',
  '-1',
  '101',
  '1.5',
  '1e3',
  'abc',
  'true',
  'false',
  'trending',
  'following',
  'start',
  'title',
  'any',
  'pending',
  '2031-01-01',
  'reunion',
  'someone@example.org',
  ...EDGE_DATES.map(encodeURIComponent),
];
const query = fc.array(
  fc.tuple(
    fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: oddText.map(percentEncode) }),
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...PLAUSIBLE_QUERY) },
      { weight: 2, arbitrary: oddText.map(percentEncode) },
      { weight: 1, arbitrary: fc.constantFrom('%00', '%ED%A0%80', '%FF', '%', '%%', '+', '&', '=') },
    ),
  ),
  { maxLength: 4 },
);

function concretePath(url: string, segments: string[]): string {
  let next = 0;
  return url.replace(/:\w+/gu, () => segments[next++] ?? '').replace('/*', () => `/${segments.slice(next).join('/') || 'some/page'}`);
}

/** Headers a browser, a crawler or an attacker might add, each present or not. */
const extraHeaders = fc.record(
  {
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'text/html;q=0, application/json;q=abc'),
    authorization: fc.constantFrom('Bearer wrong', 'Bearer ', 'Basic eDp5', `Bearer ${'x'.repeat(5_000)}`),
    'sec-fetch-site': fc.constantFrom('same-origin', 'cross-site', 'none', 'nonsense'),
    referer: fc.constantFrom('https://evil.example/', 'not a url', '%'),
    range: fc.constantFrom('bytes=0-10', 'bytes=abc', 'bytes=10-1', 'bytes=0-0,5-5,1-'),
    'if-none-match': fc.constantFrom('*', '"x"', 'W/"y"'),
    'if-modified-since': fc.constantFrom('yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT'),
    'accept-encoding': fc.constantFrom('gzip', 'br;q=x', 'identity;q=0'),
    'x-forwarded-for': fc.constantFrom('203.0.113.9', 'garbage, , ::1'),
  },
  { requiredKeys: [] },
);
/** What a guest's browser may hold instead of a session cookie: nothing, or a cookie this site never signed. */
const GUEST_COOKIES = [
  undefined,
  'bhc.sid=garbage',
  'bhc.sid=',
  'bhc.sid=s%3Aforged.signature',
  `bhc.sid=${'a'.repeat(5_000)}`,
  'bhc.sid=%E0%A4%A',
  'a=b; bhc.sid=x; bhc.sid=y',
];

interface FuzzRequest {
  route: RouteAccess;
  /** The route's method, or HEAD for a GET route (fastify answers HEAD for every GET). */
  method: string;
  caller: Caller;
  guestCookie: string | undefined;
  segments: string[];
  query: [string, string][];
  body: Body;
  contentType: string | undefined;
  origin: string | undefined;
  headers: Partial<Record<string, string>>;
}

const request = (routes: RouteAccess[], siteOrigin: string): fc.Arbitrary<FuzzRequest> =>
  fc
    .tuple(
      fc.oneof(
        ...routes.map((route) =>
          fc.record({
            route: fc.constant(route),
            method: route.method === 'GET' ? fc.constantFrom('GET', 'GET', 'HEAD') : fc.constant(route.method),
            segments: fc.tuple(segment(route.url, 0), segment(route.url, 1)),
          }),
        ),
      ),
      fc.record({
        caller: fc.constantFrom<Caller>('guest', 'member', 'staff', 'admin'),
        guestCookie: fc.constantFrom(...GUEST_COOKIES),
        query,
        body,
        // Mostly what the site's own pages send, so that most requests get past the same-origin check.
        contentType: fc.oneof(
          { weight: 2, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        ),
        origin: fc.oneof(
          { weight: 2, arbitrary: fc.constant(siteOrigin) },
          { weight: 1, arbitrary: fc.constantFrom(undefined, 'https://evil.example', 'null') },
        ),
        headers: extraHeaders,
      }),
    )
    .map(([target, rest]) => ({ ...target, ...rest }));

/** Sends one generated request; throws, describing it, on a 5xx or when no answer comes in time. */
async function send(fuzz: FuzzRequest): Promise<void> {
  const path = concretePath(fuzz.route.url, fuzz.segments);
  const search = fuzz.query.map(([key, value]) => `${key}=${value}`).join('&');
  const url = search ? `${path}?${search}` : path;
  const payload = fuzz.method === 'GET' || fuzz.method === 'HEAD' ? undefined : payloadOf(fuzz.body, fuzz.contentType);
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(fuzz.headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  if (fuzz.contentType !== undefined && payload !== undefined) headers['content-type'] = fuzz.contentType;
  if (fuzz.origin) headers.origin = fuzz.origin;
  const cookie = fuzz.caller === 'guest' ? fuzz.guestCookie : accounts.get(fuzz.caller)!.cookie;
  if (cookie) headers.cookie = cookie;
  // Only written out for a failure: slicing a large payload copies all of it.
  const failure = (outcome: string) =>
    new Error(
      `${fuzz.method} ${url.slice(0, 300)} as ${fuzz.caller}, content-type ${fuzz.contentType}, body ${payload === undefined ? 'none' : JSON.stringify(payload.slice(0, 300))} → ${outcome}`,
    );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(failure(`no answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  try {
    const response = await Promise.race([
      site.app.inject({ method: fuzz.method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) }),
      timeout,
    ]);
    sent++;
    const pool = POOL_OF_CREATED[fuzz.route.url];
    if (pool && fuzz.method === 'POST' && response.statusCode === 201) remember(pool, response.json<{ id: string }>().id);
    // Readiness answers 503 by design while the read models lag far behind: not a failure of the request.
    const notReady = fuzz.route.url === '/readyz' && response.statusCode === 503;
    if (response.statusCode >= 500 && !notReady) throw failure(`${response.statusCode} ${response.body.slice(0, 300)}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Signs a caller in again when a request to a session route ended its session, and fails when the fuzzer changed
 * one of its own callers (a new route that can must have its target pinned, as the role and suspension routes are).
 */
async function keepSignedIn(caller: Exclude<Caller, 'guest'>) {
  const account = accounts.get(caller)!;
  let me = await site.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: account.cookie } });
  if (me.statusCode === 401) {
    account.cookie = await signIn(account);
    me = await site.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: account.cookie } });
  }
  expect(me.json(), `the fuzzer changed its own ${caller}`).toMatchObject({ email: account.email, role: account.role });
}

/** Every letter that has another case (Unicode's cased letters of every script), each once. */
function casedLetters(): string[] {
  const letters: string[] = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const letter = String.fromCodePoint(code);
    if (/\p{L}/u.test(letter) && (letter.toLowerCase() !== letter || letter.toUpperCase() !== letter)) letters.push(letter);
  }
  return letters;
}

/** Each search field of the site: the route, who may search it, and the query a text makes of it. */
const SEARCH_FIELDS: { url: string; caller: Caller; query: (text: string) => string }[] = [
  { url: '/api/members', caller: 'member', query: (text) => `q=${percentEncode(text)}` },
  { url: '/api/admin/users', caller: 'staff', query: (text) => `q=${percentEncode(text)}&limit=5` },
  { url: '/api/posts', caller: 'guest', query: (text) => `q=${percentEncode(text)}&limit=5` },
  { url: '/api/posts', caller: 'member', query: (text) => `tag=${percentEncode(text)}&limit=5` },
  { url: '/api/events', caller: 'guest', query: (text) => `q=${percentEncode(text)}&limit=5` },
  // The trending feed searched: another query.
  { url: '/api/posts', caller: 'staff', query: (text) => `q=${percentEncode(text)}&filter=trending&limit=5` },
];

const refusedSearches: string[] = [];
/** A GET for the sweep, failing on a 5xx like the generated ones. */
async function sweepRequest(url: string, caller: Caller): Promise<void> {
  const cookie = caller === 'guest' ? undefined : accounts.get(caller)!.cookie;
  const response = await site.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  sent++;
  // Each must reach the search, not stop at validation.
  if (response.statusCode !== 200) refusedSearches.push(`GET ${url} as ${caller} → ${response.statusCode} ${response.body.slice(0, 200)}`);
  if (response.statusCode >= 500) throw new Error(`GET ${url} as ${caller} → ${response.statusCode} ${response.body.slice(0, 300)}`);
}

describe('fuzzing every route', () => {
  it(`answers ${BATCHES * BATCH} generated requests without a 5xx or a hang`, async () => {
    const siteOrigin = new URL(site.services.config.publicUrl).origin;
    await fc.assert(
      fc.asyncProperty(fc.array(request(site.routes, siteOrigin), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        await Promise.all(batch.map(send));
        for (const fuzz of batch) if (fuzz.caller !== 'guest' && SESSION_ROUTES.test(fuzz.route.url)) await keepSignedIn(fuzz.caller);
      }),
      { numRuns: BATCHES },
    );
    expect(sent).toBeGreaterThanOrEqual(BATCHES * BATCH);
    for (const caller of ['member', 'staff', 'admin'] as const) await keepSignedIn(caller);
  }, 300_000);

  it('answers every cased letter of every script, in each of its cases, in every search field without a 5xx', async () => {
    const letters = casedLetters();
    expect(letters.length).toBeGreaterThan(2_500);
    // Each field sees every letter; which case of it (as it is, upper, lower, or beside an ASCII word) turns with the field.
    const shapes = [(l: string) => l, (l: string) => l.toUpperCase(), (l: string) => l.toLowerCase(), (l: string) => `radio ${l}`];
    const requests = SEARCH_FIELDS.flatMap((field, f) =>
      letters.map((letter, i) => () => sweepRequest(`${field.url}?${field.query(shapes[(f + i) % shapes.length]!(letter))}`, field.caller)),
    );
    for (let start = 0; start < requests.length; start += SWEEP_BATCH)
      await Promise.all(requests.slice(start, start + SWEEP_BATCH).map((send) => send()));
    expect(refusedSearches.slice(0, 5)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
    for (const caller of ['member', 'staff', 'admin'] as const) await keepSignedIn(caller);
  }, 300_000);
});
