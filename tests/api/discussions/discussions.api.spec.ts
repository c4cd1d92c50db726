/**
 * Discussions through HTTP on a real site (issue 34): categories, topics, replies with their edit history, read
 * positions and unread counts, watching, staff's pin, lock and move, reports, search, mentions, the live notices over
 * a real socket.io client, and erasure.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLIMITED_RATES } from '../../support/site';
import { type Browser, registerMember } from '../../support/http';
import { castSite } from '../../support/cast-site';
import { connectSocket } from '../../support/sockets';
import { postReply } from '../../../server/discussions/commands';
import { discussionsProjection } from '../../../projections/discussions';
import { CHECKPOINTS } from '../../../platform/projections/progress';

const the = castSite(UNLIMITED_RATES);
let memberId: string;
let otherId: string;
const sockets: Socket[] = [];

beforeAll(() => {
  memberId = the.cast.member.user.id;
  otherId = the.cast.other.user.id;
});
afterAll(() => {
  for (const socket of sockets) socket.disconnect();
});

type Topic = {
  id: string;
  title: string;
  watch: string;
  tags: string[];
  unread: number;
  new: boolean;
  replyCount: number;
  pinned: boolean;
  locked: boolean;
  category: { id: string };
};
const topics = async (as: Browser, query = '') => (await as.get(`/api/topics${query}`)).body.items as Topic[];
const unreadCount = async (as: Browser) => (await as.get('/api/topics/unread')).body.count as number;

let stations: string;
let equipment: string;
let topicId: string;
let firstReply: string;

describe('categories', () => {
  it('are made, changed and listed by staff; members read them; a category with topics cannot be deleted', async () => {
    const made = await the.staff.post('/api/admin/categories', {
      name: 'Stations and People',
      description: 'Who worked where',
      color: '#1a6fb0',
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ slug: 'stations-and-people', name: 'Stations and People', topicCount: 0 });
    stations = made.body.id;
    equipment = (await the.admin.post('/api/admin/categories', { name: 'Equipment' })).body.id;
    expect((await the.member.post('/api/admin/categories', { name: 'Mine' })).status).toBe(403);
    expect((await the.staff.post('/api/admin/categories', { name: 'stations and people' })).status).toBe(409);
    expect((await the.staff.post('/api/admin/categories', { name: 'Bad', color: 'red' })).status).toBe(400);
    const changed = await the.staff.patch(`/api/admin/categories/${equipment}`, { description: 'Transmitters, trucks, tubes' });
    expect(changed.body).toMatchObject({ name: 'Equipment', description: 'Transmitters, trucks, tubes' });
    expect((await the.subscriber.get('/api/categories')).body.map((c: { name: string }) => c.name)).toEqual([
      'Equipment',
      'Stations and People',
    ]);

    topicId = (
      await the.member.post('/api/topics', {
        title: 'Who remembers the KRNT night crew?',
        content: 'They ran the board till 6.',
        categoryId: stations,
      })
    ).body.id;
    const refused = await the.staff.delete(`/api/admin/categories/${stations}`);
    expect(refused.status).toBe(409);
    const spare = (await the.staff.post('/api/admin/categories', { name: 'Spare' })).body.id;
    expect((await the.staff.delete(`/api/admin/categories/${spare}`)).status).toBe(204);
    expect((await the.member.get('/api/categories')).body.find((c: { id: string }) => c.id === stations).topicCount).toBe(1);
  });
});

describe('topics and replies', () => {
  it('a topic keeps sanitised rich text and its tags; its author watches it and has read it', async () => {
    const started = await the.member.post('/api/topics', {
      title: 'Identifying this 1950s remote truck',
      content: '<p>Seen at the <strong>fair</strong></p><script>alert(1)</script>',
      categoryId: equipment,
      tags: ['#Trucks', 'remote'],
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      content: '<p>Seen at the <strong>fair</strong></p>',
      tags: ['trucks', 'remote'],
      watch: 'watching',
      unread: 0,
      new: false,
      readUpTo: 0,
    });
    expect((await the.subscriber.post('/api/topics', { title: 'Hello there', content: 'Hi', categoryId: equipment })).status).toBe(403);
    expect((await the.member.post('/api/topics', { title: 'Hi', content: 'Short title', categoryId: equipment })).status).toBe(400);
    expect((await the.member.post('/api/topics', { title: 'No category', content: 'x', categoryId: crypto.randomUUID() })).status).toBe(
      404,
    );
    expect((await the.member.post('/api/topics', { title: 'Empty', content: '<script>x</script>', categoryId: equipment })).status).toBe(
      400,
    );
    const truck = started.body.id;
    expect((await the.other.patch(`/api/topics/${truck}`, { title: 'Not my topic' })).status).toBe(403);
    const edited = await the.member.patch(`/api/topics/${truck}`, { title: 'Identifying this 1950s remote truck (WOI?)' });
    expect(edited.body).toMatchObject({
      title: 'Identifying this 1950s remote truck (WOI?)',
      content: '<p>Seen at the <strong>fair</strong></p>',
    });
    expect(edited.body.editedAt).not.toBeNull();
  });

  it('replies are numbered, quote a reply, and are edited with their history kept; only the author edits', async () => {
    const reply = await the.other.post(`/api/topics/${topicId}/replies`, { content: 'I ran the board in 1968.\n\n> quoted line' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      number: 1,
      replyTo: null,
      content: '<p>I ran the board in 1968.</p><blockquote><p>quoted line</p></blockquote>',
    });
    firstReply = reply.body.id;
    const answer = await the.member.post(`/api/topics/${topicId}/replies`, { content: 'Who else was there?', replyTo: firstReply });
    expect(answer.body).toMatchObject({ number: 2, replyTo: { id: firstReply, number: 1, author: { name: 'Otto Other' } } });
    const edited = await the.other.patch(`/api/replies/${firstReply}`, { content: 'I ran the board in 1969.' });
    expect(edited.body).toMatchObject({ content: '<p>I ran the board in 1969.</p>', edits: 1 });
    expect(edited.body.editedAt).not.toBeNull();
    expect((await the.member.patch(`/api/replies/${firstReply}`, { content: 'Not mine' })).status).toBe(403);
    const history = await the.other.get(`/api/replies/${firstReply}/revisions`);
    expect(history.body.map((r: { content: string; current: boolean }) => [r.content, r.current])).toEqual([
      ['<p>I ran the board in 1969.</p>', true],
      ['<p>I ran the board in 1968.</p><blockquote><p>quoted line</p></blockquote>', false],
    ]);
    expect((await the.staff.get(`/api/replies/${firstReply}/revisions`)).status).toBe(200);
    expect((await the.member.get(`/api/replies/${firstReply}/revisions`)).status).toBe(403);
    const page = await the.subscriber.get(`/api/topics/${topicId}`);
    expect(page.body.topic).toMatchObject({ title: 'Who remembers the KRNT night crew?', replyCount: 2 });
    expect(page.body.replies.items.map((r: { number: number }) => r.number)).toEqual([1, 2]);
  });

  it('an author deletes their own reply (staff may too; others not), which stays as a deleted line', async () => {
    const extra = (await the.other.post(`/api/topics/${topicId}/replies`, { content: 'Oops, wrong topic' })).body.id;
    expect((await the.member.delete(`/api/replies/${extra}`)).status).toBe(403);
    expect((await the.other.delete(`/api/replies/${extra}`)).status).toBe(204);
    const page = (await the.member.get(`/api/topics/${topicId}`)).body;
    expect(page.replies.items.find((r: { id: string }) => r.id === extra)).toMatchObject({ deleted: true, content: '' });
    expect(page.topic.replyCount).toBe(2);
  });
});

describe('reading and watching', () => {
  it('unread counts replies past my place, and the count of topics with something unread moves', async () => {
    const mine = await topics(the.member);
    const krnt = mine.find((t) => t.id === topicId)!;
    // The author replied at number 2 and so has read up to there; the deleted reply (3) is new to them.
    expect(krnt.unread).toBe(1);
    const latest = (await the.member.get(`/api/topics/${topicId}`)).body.replies.items.at(-1).id;
    const read = await the.member.put(`/api/topics/${topicId}/read`, { upTo: latest });
    expect(read.body).toMatchObject({ topicId, readUpTo: 3, unread: 0 });
    // Backwards moves nothing.
    expect((await the.member.put(`/api/topics/${topicId}/read`, { upTo: firstReply })).body.readUpTo).toBe(3);
    const before = await unreadCount(the.member);
    await the.other.post(`/api/topics/${topicId}/replies`, { content: 'One more memory' });
    expect((await topics(the.member)).find((t) => t.id === topicId)!.unread).toBe(1);
    expect(await unreadCount(the.member)).toBe(before + 1);
    expect((await the.member.put(`/api/topics/${topicId}/read`, { upTo: crypto.randomUUID() })).status).toBe(404);
  });

  it('a newcomer sees topics begun before they joined as read, and new ones as new', async () => {
    const newcomer = (await registerMember(the.site.url, { firstName: 'Nell', lastName: 'Newcomer' })).browser;
    expect(await unreadCount(newcomer)).toBe(0);
    const fresh = (await the.other.post('/api/topics', { title: 'A brand new topic', content: 'Fresh', categoryId: stations })).body.id;
    expect((await topics(newcomer)).find((t) => t.id === fresh)).toMatchObject({ new: true });
    expect(await unreadCount(newcomer)).toBe(1);
    await newcomer.put(`/api/topics/${fresh}/read`, { upTo: fresh });
    expect(await unreadCount(newcomer)).toBe(0);
  });

  it('watching levels: replying watches, a chosen level stays, muted topics are not counted', async () => {
    expect((await topics(the.other)).find((t) => t.id === topicId)!.watch).toBe('watching');
    expect((await the.other.put(`/api/topics/${topicId}/watch`, { level: 'muted' })).body).toEqual({ topicId, level: 'muted' });
    await the.other.post(`/api/topics/${topicId}/replies`, { content: 'Still muted' });
    expect((await topics(the.other)).find((t) => t.id === topicId)!.watch).toBe('muted');
    expect((await the.other.put(`/api/topics/${topicId}/watch`, { level: 'loud' })).status).toBe(400);
  });
});

describe('staff moderation', () => {
  it('pins (first in the list), moves, and locks a topic, which then refuses replies with 409', async () => {
    expect((await the.member.put(`/api/admin/topics/${topicId}`, { pinned: true })).status).toBe(403);
    const pinned = await the.staff.put(`/api/admin/topics/${topicId}`, { pinned: true });
    expect(pinned.body.pinned).toBe(true);
    expect((await topics(the.member))[0]!.id).toBe(topicId);
    const moved = await the.staff.put(`/api/admin/topics/${topicId}`, { categoryId: equipment });
    expect(moved.body.category.id).toBe(equipment);
    expect((await topics(the.member, `?category=${stations}`)).some((t) => t.id === topicId)).toBe(false);
    expect((await topics(the.member, '?category=equipment')).some((t) => t.id === topicId)).toBe(true);
    await the.staff.put(`/api/admin/topics/${topicId}`, { locked: true });
    const refused = await the.member.post(`/api/topics/${topicId}/replies`, { content: 'Too late' });
    expect(refused.status).toBe(409);
    const byMail = await postReply(the.site.services, memberId, topicId, { content: '<p>By mail</p>' });
    expect(byMail).toMatchObject({ ok: false, refusal: 'locked' });
    await the.staff.put(`/api/admin/topics/${topicId}`, { locked: false });
    const posted = await postReply(the.site.services, memberId, topicId, { content: '<p>By mail</p>' });
    expect(posted).toMatchObject({ ok: true, reply: { content: '<p>By mail</p>', via: 'email' } });
    expect(await postReply(the.site.services, memberId, crypto.randomUUID(), { content: 'x' })).toMatchObject({
      ok: false,
      refusal: 'not_found',
    });
  });
});

describe('search, mentions and live notices', () => {
  it('finds topics by their title, text, tags and replies', async () => {
    const krntTopics = await topics(the.member, '?q=krnt');
    expect(krntTopics.map((t) => t.id)).toContain(topicId);
    expect((await topics(the.member, '?q=memory')).map((t) => t.id)).toContain(topicId);
    expect((await topics(the.member, '?q=zeppelin')).length).toBe(0);
    expect((await topics(the.member, '?tag=trucks')).map((t) => t.title)).toEqual(['Identifying this 1950s remote truck (WOI?)']);
    expect((await topics(the.member, '?q=woi')).map((t) => t.tags)).toEqual([['trucks', 'remote']]);
  });

  it('an @mention notifies the member with a link to the reply', async () => {
    const reply = await the.member.post(`/api/topics/${topicId}/replies`, { content: 'Ask @Otto Other about it' });
    const notifications = (await the.other.get('/api/notifications')).body.items as { kind: string; link: string }[];
    expect(notifications).toContainEqual(
      expect.objectContaining({ kind: 'mention', link: `/discussions/topics/${topicId}#reply-${reply.body.id}` }),
    );
  });

  it('tells readers over socket.io when a reply is posted', async () => {
    const heard: string[] = [];
    await connectSocket(the.site.url, sockets, the.subscriber, (socket) =>
      socket.onAny((message: string, payload: { id?: string; topicId?: string }) =>
        heard.push(`${message}:${payload.topicId ?? payload.id}`),
      ),
    );
    await the.other.post(`/api/topics/${topicId}/replies`, { content: 'Live now' });
    await expect.poll(() => heard).toContain(`replies:changed:${topicId}`);
  });
});

describe('reports and erasure', () => {
  it('topics and replies reported appear in the staff queue, and removing takes them down', async () => {
    expect((await the.other.post(`/api/topics/${topicId}/report`, { reason: 'Off topic' })).status).toBe(200);
    expect((await the.member.post(`/api/replies/${firstReply}/report`, {})).status).toBe(200);
    const queue = (await the.staff.get('/api/admin/reports')).body.items as { targetType: string; targetId: string; reasons: string[] }[];
    expect(queue).toContainEqual(expect.objectContaining({ targetType: 'topic', targetId: topicId, reasons: ['Off topic'] }));
    expect(queue).toContainEqual(expect.objectContaining({ targetType: 'reply', targetId: firstReply }));
    expect((await the.staff.put(`/api/admin/reports/reply/${firstReply}/remove`)).status).toBe(204);
    expect((await the.member.get(`/api/topics/${topicId}`)).body.replies.items[0]).toMatchObject({ deleted: true });
    expect((await the.staff.put(`/api/admin/reports/topic/${topicId}/dismiss`)).status).toBe(204);
    expect((await the.staff.get('/api/admin/reports')).body.items).toEqual([]);
    // A topic removed from the queue is gone for everyone, and leaves its category's count.
    const spam = (await the.other.post('/api/topics', { title: 'Buy cheap tubes', content: 'Spam', categoryId: stations })).body.id;
    const count = async () =>
      (await the.member.get('/api/categories')).body.find((c: { id: string }) => c.id === stations).topicCount as number;
    const counted = await count();
    await the.member.post(`/api/topics/${spam}/report`, { reason: 'Spam' });
    expect((await the.staff.put(`/api/admin/reports/topic/${spam}/remove`)).status).toBe(204);
    expect((await the.member.get(`/api/topics/${spam}`)).status).toBe(404);
    expect(await count()).toBe(counted - 1);
  });

  it('an erased member who takes their content leaves their topics and replies empty, by "Former member"', async () => {
    const leaving = await registerMember(the.site.url, { firstName: 'Lee', lastName: 'Leaving' });
    const own = (await leaving.browser.post('/api/topics', { title: 'My old station', content: 'Private memories', categoryId: stations }))
      .body.id;
    const said = (await leaving.browser.post(`/api/topics/${topicId}/replies`, { content: 'My words' })).body.id;
    const exported = (await leaving.browser.get('/api/me/export')).body;
    expect(exported.discussions).toMatchObject({
      topics: [expect.objectContaining({ id: own })],
      replies: [expect.objectContaining({ id: said })],
    });
    expect((await leaving.browser.request('DELETE', '/api/me', { password: leaving.account.password, content: 'removed' })).status).toBe(
      204,
    );
    const page = (await the.member.get(`/api/topics/${topicId}`)).body.replies.items as {
      id: string;
      content: string;
      author: { name: string };
    }[];
    expect(page.find((r) => r.id === said)).toMatchObject({ content: '', author: { name: 'Former member' } });
    expect((await the.member.get(`/api/topics/${own}`)).body.topic).toMatchObject({ title: 'Removed topic', content: '' });
    // In the log too: the texts were sealed with their author's keys, now destroyed; a replay rebuilds nothing of them.
    const [posted] = await the.site.services.eventStore.readStream(`reply-${said}`);
    expect(posted!.data).toMatchObject({ content: '' });
    const [started] = await the.site.services.eventStore.readStream(`topic-${own}`);
    expect(started!.data).toMatchObject({ title: 'Removed topic', content: '' });
    const raw = await the.site.services.pool.query<{ data: unknown }>(`SELECT data FROM events WHERE stream_name = $1`, [`reply-${said}`]);
    expect(raw.rows).toHaveLength(1);
    expect(JSON.stringify(raw.rows)).not.toContain('My words');
  });
});

describe('the read models', () => {
  const snapshot = () =>
    Promise.all(discussionsProjection.collections.map((name) => the.site.services.store.collection(name).find({}, { sort: { _id: 1 } })));

  it('are built again from the log alone, the same (replies numbered, counts, places, erasures)', async () => {
    const rebuiltAt = async () =>
      (await the.site.services.store.collection(CHECKPOINTS).findOne({ _id: discussionsProjection.name }))?.rebuiltAt;
    const before = await snapshot();
    const built = await rebuiltAt();
    expect(before[2]!.length).toBeGreaterThan(5);
    const { config } = the.site.services;
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/rebuild-projections.ts', '--only', 'discussions'],
      {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          DATABASE_URL: config.databaseUrl,
          REDIS_PREFIX: config.redisPrefix,
          SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
          LOG_LEVEL: 'warn',
        },
      },
    );
    expect(stderr + stdout).not.toContain('failed');
    expect(await rebuiltAt()).not.toEqual(built);
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});
