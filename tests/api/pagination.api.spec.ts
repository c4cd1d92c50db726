/**
 * Every list pages (docs/architecture.md#http-conventions): `limit` at most 100, an opaque cursor,
 * `{ items, nextCursor }`. Paging with a small limit yields every item exactly
 * once and in the list's order, ties in the sort keys included; a limit over 100
 * and a cursor this server did not make are 400s; the member list of a large
 * community answers one page.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import type { Socket } from 'socket.io-client';
import { connectSocket } from '../support/sockets';
import type { Actor } from '../../shared/domain';
import { streamName } from '../../shared/streams';
import { calendarEventDecider } from '../../shared/events/event-stream';
import { EventSchema } from '../../shared/events/schemas';
import { blogPostDecider } from '../../shared/blog/blog-stream';
import { postDecider } from '../../shared/feed/post-stream';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerCast, registerMember } from '../support/http';

let site: TestSite;
let admin: Browser;
let staff: Browser;
let member: Browser;
let adminActor: Actor;
let memberActor: Actor;
let memberEmail: string;
const sockets: Socket[] = [];
const anonymous = () => new Browser(site.url);

/** Several items share a clock reading, so only the id can order them: the cursor must carry it. */
const SAME_MOMENT = new Date('2030-06-01T12:00:00.000Z');
const moment = (i: number) => (i % 3 === 0 ? SAME_MOMENT : new Date(SAME_MOMENT.getTime() + i * 60_000));

interface Item {
  id: string;
  [field: string]: unknown;
}
interface ListPage {
  items: Item[];
  nextCursor: string | null;
}

const withQuery = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;

/** Follows nextCursor from the first page to the last, `limit` at a time. */
async function pageThrough(browser: Browser, path: string, limit: number): Promise<Item[]> {
  const seen: Item[] = [];
  let cursor: string | null = null;
  do {
    const url = withQuery(path, `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const response = await browser.get<ListPage>(url);
    expect(response.status, url).toBe(200);
    expect(Object.keys(response.body).sort(), url).toEqual(['items', 'nextCursor']);
    expect(response.body.items.length, url).toBeLessThanOrEqual(limit);
    seen.push(...response.body.items);
    cursor = response.body.nextCursor;
    if (cursor) expect(response.body.items, url).toHaveLength(limit);
  } while (cursor);
  return seen;
}

type Key = [field: string, direction: 1 | -1];
const compare = (a: unknown, b: unknown) => (a === b ? 0 : (a as string) < (b as string) ? -1 : 1);
/** Whether each item sorts strictly after the one before it by `keys` (the id last). */
function expectInOrder(items: Item[], keys: Key[], label: string) {
  for (let i = 1; i < items.length; i++) {
    const [before, after] = [items[i - 1]!, items[i]!];
    const order = keys.reduce((found, [field, direction]) => found || direction * compare(before[field], after[field]), 0);
    expect(order, `${label}: ${before.id} before ${after.id}`).toBeLessThan(0);
  }
}

/**
 * Pages through `path` 2 at a time and checks that it gives what one page of 100 gives, each item once, in `keys`
 * order, and that every id of `expected` is among them.
 */
async function expectPagesCover(browser: Browser, path: string, keys: Key[], expected: string[]) {
  const whole = await browser.get<ListPage>(withQuery(path, 'limit=100'));
  expect(whole.status, path).toBe(200);
  expect(whole.body.nextCursor, path).toBeNull();
  const paged = await pageThrough(browser, path, 2);
  const ids = paged.map((item) => item.id);
  expect(new Set(ids).size, path).toBe(ids.length);
  expect(ids, path).toEqual(whole.body.items.map((item) => item.id));
  expect(ids, path).toEqual(expect.arrayContaining(expected));
  expectInOrder(paged, keys, path);
  return ids;
}

async function scheduleEvent(actor: Actor, at: Date, fields: Record<string, unknown>) {
  const id = randomUUID();
  const data = {
    id,
    fields: v.parse(EventSchema, {
      eventType: 'reunion',
      startDate: '2031-05-01T18:00:00.000Z',
      endDate: '2031-05-01T21:00:00.000Z',
      ...fields,
    }),
  };
  await site.services.handle(calendarEventDecider, streamName('event', id), { type: 'ScheduleEvent', data, metadata: { now: at, actor } });
  return id;
}

async function eventCommand(id: string, type: 'FeatureEvent', at: Date) {
  await site.services.handle(calendarEventDecider, streamName('event', id), { type, data: {}, metadata: { now: at, actor: adminActor } });
}

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '10000', RATE_LIMIT_POST_MAX: '10000' });
  const cast = await registerCast(site.url);
  admin = cast.admin.browser;
  staff = cast.staff.browser;
  member = cast.member.browser;
  adminActor = { id: cast.admin.user.id, role: 'admin' };
  memberActor = { id: cast.member.user.id, role: 'member' };
  memberEmail = cast.member.user.email;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await site?.close();
});

describe('events', () => {
  const published: string[] = [];
  const pending: string[] = [];

  beforeAll(async () => {
    // Shared start dates and titles, so that start and title order have ties only the id breaks.
    for (let i = 0; i < 7; i++) {
      published.push(
        await scheduleEvent(adminActor, moment(i), {
          title: i % 2 === 0 ? 'Tower reunion' : `Signal day ${i}`,
          startDate: i < 4 ? '2031-05-01T18:00:00.000Z' : `2031-05-0${i}T18:00:00.000Z`,
          endDate: '2031-05-09T21:00:00.000Z',
        }),
      );
    }
    for (const id of published.slice(0, 5)) await eventCommand(id, 'FeatureEvent', SAME_MOMENT);
    for (let i = 0; i < 5; i++) pending.push(await scheduleEvent(memberActor, moment(i), { title: 'Engineers lunch' }));
  });

  it('pages the calendar in each of its orders, and with its filters', async () => {
    await expectPagesCover(
      anonymous(),
      '/api/events',
      [
        ['startDate', 1],
        ['id', 1],
      ],
      published,
    );
    await expectPagesCover(
      anonymous(),
      '/api/events?sort=start',
      [
        ['startDate', 1],
        ['id', 1],
      ],
      published,
    );
    await expectPagesCover(
      anonymous(),
      '/api/events?sort=title',
      [
        ['title', 1],
        ['id', 1],
      ],
      published,
    );
    await expectPagesCover(
      anonymous(),
      '/api/events?sort=created',
      [
        ['createdAt', -1],
        ['id', 1],
      ],
      published,
    );
    await expectPagesCover(
      staff,
      '/api/events?status=any&sort=created',
      [
        ['createdAt', -1],
        ['id', 1],
      ],
      [...published, ...pending],
    );
    const reunions = await expectPagesCover(
      anonymous(),
      '/api/events?q=tower&from=2031-05-01T00:00:00.000Z&to=2031-06-01T00:00:00.000Z',
      [
        ['startDate', 1],
        ['id', 1],
      ],
      [],
    );
    expect(reunions).toHaveLength(4);
  });

  it('pages the moderation queue, the featured list and my events', async () => {
    expect(
      await expectPagesCover(
        staff,
        '/api/admin/events/pending',
        [
          ['createdAt', 1],
          ['id', 1],
        ],
        pending,
      ),
    ).toHaveLength(5);
    await expectPagesCover(
      staff,
      '/api/admin/events/pending?sort=title',
      [
        ['title', 1],
        ['id', 1],
      ],
      pending,
    );
    expect(
      await expectPagesCover(
        staff,
        '/api/admin/events/featured',
        [
          ['startDate', 1],
          ['id', 1],
        ],
        published.slice(0, 5),
      ),
    ).toHaveLength(5);
    expect(
      await expectPagesCover(
        member,
        '/api/user/events',
        [
          ['startDate', 1],
          ['id', 1],
        ],
        pending,
      ),
    ).toHaveLength(5);
  });

  it('refuses a cursor made for another order', async () => {
    const byTitle = (await anonymous().get('/api/events?sort=title&limit=1')).body.nextCursor as string;
    const response = await anonymous().get(`/api/events?sort=start&limit=1&cursor=${byTitle}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Invalid cursor', fields: { cursor: 'Invalid cursor' } });
  });
});

describe('blog', () => {
  const published: string[] = [];
  const drafts: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 9; i++) {
      const id = randomUUID();
      const data = {
        id,
        title: `Story ${i}`,
        excerpt: 'A story',
        content: '<p>A story</p>',
        tags: [],
        isPublished: i < 7,
        isPinned: i === 2 || i === 5,
        isFeatured: i === 4,
      };
      await site.services.handle(blogPostDecider, streamName('blog', id), {
        type: 'CreateBlogPost',
        data,
        metadata: { now: moment(i), actor: adminActor },
      });
      (data.isPublished ? published : drafts).push(id);
    }
  });

  it('pages the published posts, pinned first, with the featured and pinned filters', async () => {
    // Readers' order is pinned first, then by publication (here the creation moment), newest first.
    const readingOrder: Key[] = [
      ['isPinned', -1],
      ['publishedAt', -1],
      ['id', -1],
    ];
    const ids = await expectPagesCover(anonymous(), '/api/blog', readingOrder, published);
    expect(ids).toHaveLength(7);
    await expectPagesCover(
      anonymous(),
      '/api/blog?pinned=false',
      readingOrder,
      published.filter((_, i) => i !== 2 && i !== 5),
    );
    expect(await expectPagesCover(anonymous(), '/api/blog?featured=true', readingOrder, [published[4]!])).toHaveLength(1);
  });

  it('pages management’s list, drafts included', async () => {
    expect(
      await expectPagesCover(
        staff,
        '/api/admin/blog',
        [
          ['createdAt', -1],
          ['id', -1],
        ],
        [...published, ...drafts],
      ),
    ).toHaveLength(9);
  });
});

describe('feed', () => {
  const queued: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 7; i++) {
      const id = randomUUID();
      const data = { id, content: `Memory ${i}`, mediaType: null, mediaUrl: null, mediaTitle: null, tags: [] };
      await site.services.handle(postDecider, streamName('post', id), {
        type: 'SubmitPost',
        data,
        metadata: { now: moment(i), actor: memberActor },
      });
      queued.push(id);
    }
  });

  it('pages the moderation queue, oldest first', async () => {
    expect(
      await expectPagesCover(
        staff,
        '/api/admin/posts/pending',
        [
          ['createdAt', 1],
          ['id', 1],
        ],
        queued,
      ),
    ).toHaveLength(7);
  });

  it('pages the feed with the same cursor as every other list', async () => {
    expect(
      await expectPagesCover(
        member,
        '/api/posts',
        [
          ['isPinned', -1],
          ['createdAt', -1],
          ['id', -1],
        ],
        queued,
      ),
    ).toHaveLength(7);
  });
});

describe('subscriptions', () => {
  it('pages a member’s own subscriptions and the consent record of an address', async () => {
    const own: string[] = [];
    for (const subscriptionType of ['blog_posts', 'newsfeed', 'all']) {
      const created = await member.post('/api/subscriptions', { subscriptionType, frequency: 'weekly' });
      expect(created.status).toBe(201);
      own.push(created.body.id);
    }
    expect(
      await expectPagesCover(
        member,
        '/api/subscriptions',
        [
          ['createdAt', 1],
          ['id', 1],
        ],
        own,
      ),
    ).toEqual(own);

    // Ended subscriptions stay in the consent record: leaving and joining again makes it longer.
    const ended: string[] = [];
    for (let i = 0; i < 3; i++) {
      expect((await member.delete(`/api/subscriptions/${own[0]}`)).status).toBe(204);
      ended.push(own[0]!);
      own[0] = (await member.post('/api/subscriptions', { subscriptionType: 'blog_posts', frequency: 'daily' })).body.id;
    }
    const record = await expectPagesCover(
      staff,
      `/api/admin/subscriptions?email=${encodeURIComponent(memberEmail)}`,
      [
        ['createdAt', -1],
        ['id', 1],
      ],
      [...own, ...ended],
    );
    expect(record).toHaveLength(6);
  });
});

describe('members', () => {
  it('answers one page of a community of 120 members, and pages through all of them once', async () => {
    for (let batch = 0; batch < 23; batch++) await Promise.all(Array.from({ length: 5 }, () => registerMember(site.url)));
    const first = await admin.get<ListPage>('/api/admin/users');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(50);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect((await admin.get<ListPage>('/api/admin/users?limit=100')).body.items).toHaveLength(100);
    const everyone = await pageThrough(admin, '/api/admin/users', 100);
    const ids = everyone.map((row) => row.id);
    expect(new Set(ids).size).toBe(120);
    expect(ids).toEqual(expect.arrayContaining([adminActor.id, memberActor.id]));
    expectInOrder(
      everyone,
      [
        ['joinedAt', -1],
        ['id', -1],
      ],
      'members',
    );
    expect((await pageThrough(admin, '/api/admin/users', 7)).map((row) => row.id)).toEqual(ids);
    expect(everyone[0]).toMatchObject({
      name: expect.any(String),
      email: expect.any(String),
      role: 'member',
      status: 'offline',
      posts: 0,
      suspended: false,
    });
  });

  it('lists only the members online now when asked', async () => {
    expect((await admin.get('/api/admin/users?online=true')).body).toEqual({ items: [], nextCursor: null });
    await connectSocket(site.url, sockets, member);
    await expect
      .poll(async () => (await admin.get<ListPage>('/api/admin/users?online=true')).body.items.map((row) => [row.id, row.status]))
      .toEqual([[memberActor.id, 'online']]);
    expect((await admin.get('/api/admin/users?online=yes')).status).toBe(400);
  });
});

describe('limits and cursors', () => {
  /** Every list, as someone who may read it; by now each holds at least two items. */
  const lists = (): [Browser, string][] => [
    [anonymous(), '/api/events'],
    [anonymous(), '/api/events?sort=title'],
    [staff, '/api/admin/events/pending'],
    [staff, '/api/admin/events/featured'],
    [member, '/api/user/events'],
    [anonymous(), '/api/blog'],
    [staff, '/api/admin/blog'],
    [admin, '/api/admin/users'],
    [staff, '/api/admin/posts/pending'],
    [member, '/api/posts'],
    [member, '/api/subscriptions'],
    [staff, `/api/admin/subscriptions?email=${encodeURIComponent(memberEmail)}`],
  ];
  const encode = (position: unknown) => Buffer.from(JSON.stringify(position)).toString('base64url');
  /** The list's own cursor with every text in it replaced: what a forger would try. */
  const tampered = (cursor: string, text: string) =>
    encode(
      Object.fromEntries(
        Object.entries(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>).map(([key, value]) => [
          key,
          typeof value === 'string' ? text : value,
        ]),
      ),
    );

  it('refuses a limit over 100, naming the field', async () => {
    for (const [who, path] of lists()) {
      for (const limit of ['101', '0', 'ten']) {
        const response = await who.get(withQuery(path, `limit=${limit}`));
        expect(response.status, `${path} limit=${limit}`).toBe(400);
        expect(Object.keys(response.body.fields), `${path} limit=${limit}`).toEqual(['limit']);
      }
      expect((await who.get(withQuery(path, 'limit=101'))).body.fields.limit, path).toBe('limit must be at most 100');
      expect((await who.get(withQuery(path, 'limit=100'))).status, path).toBe(200);
    }
  });

  it('refuses a cursor it did not make, or one changed to carry text PostgreSQL refuses', async () => {
    for (const [who, path] of lists()) {
      const real = (await who.get<ListPage>(withQuery(path, 'limit=1'))).body.nextCursor;
      expect(real, path).toEqual(expect.any(String));
      expect((await who.get(withQuery(path, `limit=1&cursor=${real}`))).status, path).toBe(200);
      const bad = [
        'not-a-cursor',
        '%00',
        encode([1, 2]),
        encode({ _id: 'x' }),
        encode(null),
        'x'.repeat(5000),
        tampered(real!, 'a\u0000b'),
        tampered(real!, '\ud800'),
        tampered(real!, '\udc00x'),
      ];
      for (const cursor of bad) {
        const response = await who.get(withQuery(path, `cursor=${encodeURIComponent(cursor)}`));
        expect(response.status, `${path} cursor=${cursor.slice(0, 40)}`).toBe(400);
        expect(Object.keys(response.body.fields), `${path} cursor=${cursor.slice(0, 40)}`).toEqual(['cursor']);
      }
    }
  });
});
