/**
 * Leaving with one's data (docs/domain/members.md#export, #erasure), end to end on a running site: the export holds
 * every event of the member in the log; erasing the account removes their personal data from every read model and
 * from the log's payloads, keeps or removes their content as they chose, and `npm run projections:rebuild` brings
 * nothing of it back. Every table, the raw log and every Redis key are searched for their address, names, bio and
 * free text (the reasons of their reports included); a guest's subscription of their address ends with them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startTestSite, UNLIMITED_RATES, type TestSite, steadyHead } from '../../support/site';
import { SESSION_COOKIE } from '../../../server/app';
import { Browser, registerCast, registerMember } from '../../support/http';
import { childProcesses } from '../../support/processes';
import { parseStreamName } from '../../../shared/streams';
import { subscriptionToken } from '../../../platform/mail/link-tokens';
import { subscriptionsCollection } from '../../../projections/subscriptions';

let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;
const processes = childProcesses();
const PASSWORD = 'correct horse battery';

let mediaDirectory: string;

beforeAll(async () => {
  mediaDirectory = await mkdtemp(join(tmpdir(), 'bhc-erasure-media-'));
  site = await startTestSite({ ...UNLIMITED_RATES, MEDIA_DIR: mediaDirectory });
  cast = await registerCast(site.url);
}, 60_000);
afterAll(async () => {
  await processes.stopAll();
  await site?.close();
  await rm(mediaDirectory, { recursive: true, force: true });
});

/** POST /api/media from the site's own page, as the account page and the composer send it. */
async function upload(browser: Browser, bytes: Buffer): Promise<{ id: string; url: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'picture.png');
  const response = await fetch(new URL('/api/media', site.url), {
    method: 'POST',
    body: form,
    headers: { origin: site.url, cookie: `${SESSION_COOKIE}=${browser.cookie(SESSION_COOKIE)}` },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; url: string };
}
const picture = () =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 90, g: 60, b: 30 } } })
    .png()
    .toBuffer();

/** The documents, in every collection of the document store (read models and the rest), that hold this text. */
async function holding(text: string): Promise<string[]> {
  const { store } = site.services;
  const found: string[] = [];
  for (const name of await store.listCollections()) {
    for (const document of await store.collection(name).find({}))
      if (JSON.stringify(document).includes(text)) found.push(`${name}: ${JSON.stringify(document).slice(0, 300)}`);
  }
  return found;
}

/** Every Redis key of the site (sessions, limits, queues and their jobs, the mailbox) whose name or value holds this text. */
async function redisHolding(text: string): Promise<string[]> {
  const { redis, config } = site.services;
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.redisPrefix}*`, 'COUNT', '500');
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      const value =
        type === 'string'
          ? await redis.get(key)
          : type === 'hash'
            ? JSON.stringify(await redis.hgetall(key))
            : type === 'list'
              ? JSON.stringify(await redis.lrange(key, 0, -1))
              : type === 'set'
                ? JSON.stringify(await redis.smembers(key))
                : type === 'zset'
                  ? JSON.stringify(await redis.zrange(key, '0', '-1'))
                  : type === 'stream'
                    ? JSON.stringify(await redis.xrange(key, '-', '+'))
                    : '';
      if (`${key} ${value}`.includes(text)) found.push(`${key}: ${String(value).slice(0, 300)}`);
    }
  } while (cursor !== '0');
  return found;
}

/** The event log as stored: every event's data and metadata, not opened. */
async function rawLog(): Promise<string> {
  const { rows } = await site.services.pool.query<{ row: string }>('SELECT row_to_json(events)::text AS row FROM events ORDER BY position');
  return rows.map((row) => row.row).join('\n');
}

/** `npm run projections:rebuild` against the site's database, with the site's own runner stopped meanwhile. */
async function rebuild() {
  await site.services.readModels.stop();
  const { config } = site.services;
  const child = processes.start('scripts/rebuild-projections.ts', {
    NODE_ENV: 'test',
    DATABASE_URL: config.databaseUrl,
    REDIS_PREFIX: config.redisPrefix,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'warn',
  });
  await new Promise((resolve) => child.once('exit', resolve));
  expect(child.exitCode, processes.logs.join('')).toBe(0);
  await site.services.readModels.start();
  await site.services.progress.waitFor(await steadyHead(site.services.eventStore), 30_000);
}

/** A guest's confirmed subscription of this address, as the form and the link in its mail make it; its id. */
async function guestSubscription(email: string): Promise<string> {
  expect((await new Browser(site.url).post('/api/subscribe', { email, subscriptionType: 'all', frequency: 'immediate' })).status).toBe(202);
  // Its confirmation mail goes out before the erasure, not after it.
  await site.services.mailbox.waitFor((mail) => mail.to.some((to) => to.includes(email)));
  const subscription = await subscriptionsCollection(site.services.store).findOne({ email });
  expect(
    (
      await new Browser(site.url).post(
        `/api/subscribe/confirm/${subscriptionToken(site.services.config.subscriptionLinkSecret, subscription!._id)}`,
      )
    ).status,
  ).toBe(200);
  return subscription!._id;
}

/** A member who takes part in everything: each string the site keeps of them carries `identity`, what they wrote `words`. */
async function activeMember(identity: string, words: string) {
  const email = `leaver-${identity}@example.org`;
  // Subscribed as a guest before they registered: the same address.
  const guestSubscriptionId = await guestSubscription(email);
  const leaver = await registerMember(site.url, {
    email,
    firstName: `Quill${identity}`,
    lastName: `Zephyr${identity}`,
    password: PASSWORD,
  });
  const { browser } = leaver;
  expect((await browser.patch('/api/me', { bio: `Night shift at WXYZ, ${identity}` })).status).toBe(200);
  // A past name, which the log keeps in its own event.
  expect((await browser.patch('/api/me', { lastName: `Zephyrine${identity}` })).status).toBe(200);

  const avatar = await upload(browser, await picture());
  expect((await browser.put('/api/me/avatar', { mediaId: avatar.id })).status).toBe(200);
  const photo = await upload(browser, await picture());
  const own = await browser.post('/api/posts', { content: `My aircheck ${words} from 1974`, tags: ['radio'], mediaId: photo.id });
  expect(own.status).toBe(201);
  expect((await cast.admin.browser.put(`/api/admin/posts/${own.body.id}/approve`)).status).toBe(200);
  const adminPost = await cast.admin.browser.post('/api/posts', { content: 'Who remembers the WLS tower?' });
  expect((await browser.post(`/api/posts/${adminPost.body.id}/comments`, { content: `I climbed it ${words} @Ada Admin` })).status).toBe(
    201,
  );
  // Others' words are theirs: a mention by name in them stays (docs/domain/members.md#erasure), so none is made here.
  const othersComment = await cast.other.browser.post(`/api/posts/${own.body.id}/comments`, { content: 'Lovely recording' });
  expect(othersComment.status).toBe(201);
  expect((await cast.other.browser.post(`/api/posts/${own.body.id}/report`, { reason: 'off topic' })).status).toBe(200);
  // Their own reports, whose reasons are their words: of a post and of a comment.
  const othersPost = await cast.other.browser.post('/api/posts', { content: 'A post to report' });
  expect((await cast.admin.browser.put(`/api/admin/posts/${othersPost.body.id}/approve`)).status).toBe(200);
  expect((await browser.post(`/api/posts/${othersPost.body.id}/report`, { reason: `Misleading, says ${identity}` })).status).toBe(200);
  expect((await browser.post(`/api/comments/${othersComment.body.id}/report`, { reason: `Rude to me, ${identity}` })).status).toBe(200);
  const queue = JSON.stringify((await cast.admin.browser.get('/api/admin/reports')).body);
  expect(queue).toContain(`Misleading, says ${identity}`);
  expect(queue).toContain(`Rude to me, ${identity}`);
  expect((await browser.put(`/api/posts/${adminPost.body.id}/like`)).status).toBe(200);
  expect((await browser.put(`/api/bookmarks/post/${adminPost.body.id}`)).status).toBeLessThan(300);

  const adminEvent = await cast.admin.browser.post('/api/events', {
    title: 'Tower open day',
    startDate: '2031-05-10T15:00:00Z',
    endDate: '2031-05-10T18:00:00Z',
  });
  expect((await browser.put(`/api/events/${adminEvent.body.id}/rsvp/me`, { status: 'attending' })).status).toBe(200);
  const ownEvent = await browser.post('/api/events', {
    title: `Reunion ${words}`,
    description: `Bring tapes ${words}`,
    startDate: '2031-06-10T15:00:00Z',
    endDate: '2031-06-10T18:00:00Z',
  });
  expect(ownEvent.status).toBe(201);
  expect((await browser.post('/api/subscriptions', { subscriptionType: 'newsfeed', frequency: 'daily' })).status).toBe(201);
  expect((await browser.get('/api/me/calendar-url')).status).toBe(200);
  const avatarUrl = (await browser.get('/api/auth/user')).body.profileImageUrl as string;
  expect((await browser.get(avatarUrl)).status).toBe(200);
  const photoUrl = (await browser.get('/api/posts?limit=50')).body.items.find((item: { id: string }) => item.id === own.body.id).media
    .url as string;
  return {
    ...leaver,
    postId: own.body.id as string,
    eventId: ownEvent.body.id as string,
    avatarUrl,
    photoUrl,
    guestSubscriptionId,
    reportedPostId: othersPost.body.id as string,
  };
}

/** What the log holds of a member, found without the export's read model: what they did, their own streams and what names them. */
async function ownEventIds(memberId: string): Promise<string[]> {
  const { rows } = await site.services.pool.query<{
    id: string;
    stream_name: string;
    data: Record<string, unknown>;
    metadata: Record<string, unknown>;
  }>('SELECT id::text, stream_name, data, metadata FROM events ORDER BY position');
  const ownSubscriptions = new Set<string>();
  const ids: string[] = [];
  for (const row of rows) {
    const stream = parseStreamName(row.stream_name);
    if (stream?.type === 'subscription' && row.metadata.actorId === memberId) ownSubscriptions.add(stream.id);
    const own = stream && ['member', 'inbox', 'bookmarks', 'calendar'].includes(stream.type) && stream.id === memberId;
    // What they wrote, whoever appended it: a post's, blog post's or comment's author, an event's organizer.
    const wrote =
      (stream && ['post', 'blog', 'comment'].includes(stream.type) && row.data.authorId === memberId) ||
      (stream?.type === 'event' && row.data.organizerId === memberId);
    if (
      row.metadata.actorId === memberId ||
      own ||
      wrote ||
      row.data.memberId === memberId ||
      (stream?.type === 'subscription' && ownSubscriptions.has(stream.id))
    )
      ids.push(row.id);
  }
  return ids;
}

describe('leaving with one’s data', () => {
  it('exports everything the log holds of the member, and everything held about them', async () => {
    const identity = randomBytes(5).toString('hex');
    const { browser, user } = await activeMember(identity, 'export');
    const exported = await browser.get('/api/me/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(
      /^attachment; filename="broadcast-history-community-\d{4}-\d\d-\d\d\.json"$/u,
    );
    const file = exported.body;
    expect(file.account).toMatchObject({
      id: user.id,
      email: `leaver-${identity}@example.org`,
      firstName: `Quill${identity}`,
      bio: `Night shift at WXYZ, ${identity}`,
      password: '(held, not included: a one-way hash)',
    });
    expect(file.subscriptions).toEqual([
      expect.objectContaining({
        email: `leaver-${identity}@example.org`,
        madeAs: 'member',
        subscriptionType: 'newsfeed',
        frequency: 'daily',
        status: 'active',
      }),
      // Made as a guest with the same address before they registered: theirs too.
      expect.objectContaining({
        email: `leaver-${identity}@example.org`,
        madeAs: 'guest',
        subscriptionType: 'all',
        frequency: 'immediate',
        status: 'active',
      }),
    ]);
    expect(file.sessions).toHaveLength(1);
    expect(file.uploads).toHaveLength(2);
    for (const upload of file.uploads) expect((await browser.get(upload.url)).status).toBe(200);
    const types = file.activity.map((event: { type: string }) => event.type);
    for (const type of [
      'MemberRegistered',
      'MemberProfileChanged',
      'PostSubmitted',
      'CommentWritten',
      'PostLiked',
      'BookmarkSaved',
      'RsvpChanged',
      'EventScheduled',
      'SubscriptionRequested',
      'CalendarFeedIssued',
    ])
      expect(types).toContain(type);
    // Complete: the very events the log holds of them, in the log's order, opened.
    const inLog = await ownEventIds(user.id);
    expect(file.activity).toHaveLength(inLog.length);
    expect(JSON.stringify(file.activity)).toContain('My aircheck export from 1974');
    // The same, as documents a person reads.
    expect(file.posts).toEqual([expect.objectContaining({ text: 'My aircheck export from 1974', tags: ['radio'], status: 'approved' })]);
    expect(file.comments).toEqual([
      expect.objectContaining({ text: 'I climbed it export @Ada Admin', on: expect.objectContaining({ kind: 'post' }), removed: false }),
    ]);
    expect(file.events).toEqual([expect.objectContaining({ title: 'Reunion export', description: 'Bring tapes export' })]);
    expect(file.rsvps).toEqual([
      expect.objectContaining({ event: expect.objectContaining({ title: 'Tower open day' }), answer: 'attending' }),
    ]);
    expect(JSON.stringify(file)).not.toMatch(/scrypt\$/u);
    expect((await new Browser(site.url).get('/api/me/export')).status).toBe(401);
  }, 60_000);

  it('erases the account but keeps what they wrote, as by “Former member”, through a rebuild', async () => {
    const identity = randomBytes(5).toString('hex');
    const { browser, user, account, postId, eventId, avatarUrl, photoUrl, guestSubscriptionId, reportedPostId } = await activeMember(
      identity,
      'keepsake',
    );
    const addressHash = createHash('sha256').update(account.email).digest('hex');
    // Address claims are named by a keyed hash: the log's stream names do not tell which addresses have an account.
    expect(await rawLog()).not.toContain(addressHash);
    expect(await holding(identity)).not.toEqual([]);

    expect((await browser.request('DELETE', '/api/me', { password: 'not my password' })).status).toBe(400);
    expect((await browser.get('/api/auth/user')).status).toBe(200);
    const otherSession = new Browser(site.url);
    expect((await otherSession.post('/api/auth/login', { email: account.email, password: PASSWORD })).status).toBe(200);

    await site.services.mailbox.add({
      id: `mail-${identity}`,
      from: 'site@example.org',
      to: [`Quill <${account.email}>`],
      subject: 'Your digest',
      date: new Date().toISOString(),
      headers: {},
      text: '',
      html: '',
    });
    expect((await browser.request('DELETE', '/api/me', { password: PASSWORD, content: 'kept' })).status).toBe(204);
    expect((await site.services.mailbox.list()).map((mail) => mail.id)).not.toContain(`mail-${identity}`);
    expect((await browser.get('/api/auth/user')).status).toBe(401);
    expect((await otherSession.get('/api/auth/user')).status).toBe(401);
    expect((await new Browser(site.url).post('/api/auth/login', { email: account.email, password: PASSWORD })).status).toBe(401);

    const check = async () => {
      expect(await holding(identity)).toEqual([]);
      expect(await redisHolding(identity)).toEqual([]);
      expect(await rawLog()).not.toContain(identity);
      expect(await rawLog()).not.toContain('keepsake');
      expect(await rawLog()).not.toContain(addressHash);
      // The guest's subscription of their address is gone from the read models and the mail runner's, its link with it.
      expect(await subscriptionsCollection(site.services.store).findOne({ _id: guestSubscriptionId })).toBeNull();
      expect(
        (
          await new Browser(site.url).get(
            `/api/unsubscribe/${subscriptionToken(site.services.config.subscriptionLinkSecret, guestSubscriptionId)}`,
          )
        ).status,
      ).toBe(404);
      // Their reports still count, without their words.
      const entry = (await cast.admin.browser.get('/api/admin/reports')).body.items.find(
        (item: { targetId: string }) => item.targetId === reportedPostId,
      );
      expect(entry).toMatchObject({ reporters: 1, reasons: [] });
      // A report of their own post names them as "Former member".
      const ofTheirs = (await cast.admin.browser.get('/api/admin/reports')).body.items.find(
        (item: { targetId: string }) => item.targetId === postId,
      );
      expect(ofTheirs?.author).toEqual({ id: user.id, name: 'Former member' });
      const post = (await cast.member.browser.get(`/api/posts?q=keepsake`)).body.items.find((item: { id: string }) => item.id === postId);
      expect(post).toMatchObject({ content: 'My aircheck keepsake from 1974', author: expect.objectContaining({ name: 'Former member' }) });
      const event = await cast.admin.browser.get(`/api/events/${eventId}`);
      expect(event.body).toMatchObject({
        title: 'Reunion keepsake',
        organizer: expect.objectContaining({ firstName: 'Former', lastName: 'member' }),
      });
      expect((await cast.member.browser.get(`/api/members/${user.id}`)).status).toBe(404);
      const notifications = (await cast.admin.browser.get('/api/notifications')).body.items.map((item: { text: string }) => item.text);
      expect(notifications.some((text: string) => text.startsWith('Former member commented'))).toBe(true);
      // Their picture is gone; the photo of the post they left stays with it.
      expect((await cast.member.browser.get(avatarUrl)).status).toBe(404);
      expect((await cast.member.browser.get(photoUrl)).status).toBe(200);
    };
    await check();
    // Nothing is mailed to the address any more: a new blog post reaches a guest who subscribed alike, not them.
    const control = `control-${identity.slice(0, 4)}@example.org`;
    await guestSubscription(control);
    const blogPost = await cast.admin.browser.post('/api/blog', {
      title: `News ${randomBytes(3).toString('hex')}`,
      content: '<p>Text</p>',
      isPublished: true,
    });
    expect(blogPost.status).toBe(201);
    await site.services.mailbox.waitFor(
      (mail) => mail.to.some((to) => to.includes(control)) && mail.subject.includes(blogPost.body.title),
      20_000,
    );
    expect((await site.services.mailbox.list()).filter((mail) => mail.to.some((to) => to.includes(account.email)))).toEqual([]);
    await rebuild();
    await check();

    // The address is free again.
    expect((await registerMember(site.url, { ...account, firstName: 'New', lastName: 'Start' })).user.email).toBe(account.email);
  }, 120_000);

  it('erases the account with what they wrote when they ask, through a rebuild', async () => {
    const identity = randomBytes(5).toString('hex');
    const words = `gone${randomBytes(4).toString('hex')}`;
    const { browser, postId, eventId, avatarUrl, photoUrl } = await activeMember(identity, words);
    // Staff tidied their post: the edit is what the admin did (in the admin's activity), and its text is the leaver's.
    const tidied = await cast.admin.browser.patch(`/api/posts/${postId}`, { content: `My aircheck ${words} from 1974, tidied` });
    expect(tidied.status).toBe(200);
    expect(JSON.stringify((await cast.admin.browser.get('/api/me/export')).body.activity)).toContain(`${words} from 1974, tidied`);
    expect((await browser.request('DELETE', '/api/me', { password: PASSWORD, content: 'removed' })).status).toBe(204);

    const check = async () => {
      expect(await holding(identity)).toEqual([]);
      expect(await redisHolding(identity)).toEqual([]);
      expect(await rawLog()).not.toContain(identity);
      expect(await holding(words)).toEqual([]);
      expect(await rawLog()).not.toContain(words);
      // The admin's export still lists the edit they made, without the text that went with its writer.
      const adminActivity = (await cast.admin.browser.get('/api/me/export')).body.activity as { type: string; stream: string }[];
      expect(adminActivity).toContainEqual(expect.objectContaining({ type: 'PostEdited', stream: `post-${postId}` }));
      expect(JSON.stringify(adminActivity)).not.toContain(words);
      expect((await cast.member.browser.get('/api/posts?limit=50')).body.items.map((item: { id: string }) => item.id)).not.toContain(
        postId,
      );
      expect((await cast.admin.browser.get(`/api/events/${eventId}`)).status).toBe(404);
      expect((await cast.member.browser.get(avatarUrl)).status).toBe(404);
      expect((await cast.member.browser.get(photoUrl)).status).toBe(404);
    };
    await check();
    await rebuild();
    await check();
  }, 120_000);

  it('keeps the last admin from leaving', async () => {
    expect((await cast.admin.browser.request('DELETE', '/api/me', { password: 'correct horse battery' })).status).toBe(422);
    expect((await cast.admin.browser.get('/api/auth/user')).status).toBe(200);
  });
});
