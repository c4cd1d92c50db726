/**
 * Subscription mail from the event log to a real SMTP server in this process: who receives a publication, the
 * guest's double opt-in, replays, digests and bounces. The whole site runs here (all roles), mailing through
 * SMTP_URL to a server that counts per recipient.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestSite, workerProcessOf, steadyHead } from '../../support/site';
import { streamName } from '../../../shared/streams';
import { MAX_BOUNCES } from '../../../shared/subscriptions/constants';
import { mailOutbox, newOutboxEntry } from '../../../workers/subscriptions/outbox';
import { CLAIM_LEASE_MS } from '../../../workers/subscriptions/delivery';
import { createTransport } from '../../../platform/mail/transport';
import { MAIL_DIGEST_RUNS, type DigestRuns } from '../../../workers/subscriptions/digests';
import { createMailReactor, HISTORY_AGE_MS } from '../../../workers/subscriptions/reactor';
import type { RecordedEvent } from '../../../platform/event-store/port';
import type { Actor } from '../../../shared/domain';
import {
  approvedFeedPost,
  confirm,
  publishBlogPost,
  scheduleEvent,
  startCountingSmtp,
  subscribe,
  unsubscribe,
  type Commands,
  type CountingSmtp,
  type TestSubscription,
  allDelivered,
  itemCause,
  itemEntryId,
  startMailingSite,
  closeMailingSite,
  afterMailRunnerTakeOver,
} from './delivery-fixtures';

const PUBLIC_URL = 'https://community.example.org';

let smtp: CountingSmtp;
let site: TestSite;
let handle: Commands;
let secret: string;

beforeAll(async () => {
  ({ smtp, site, handle, secret } = await startMailingSite(
    { PUBLIC_URL, TIME_ZONE: 'America/Chicago' },
    { refuse: (address) => address.startsWith('bounce'), deferOnce: (address) => address.startsWith('deferred') },
  ));
});
afterAll(() => closeMailingSite(site, smtp));

const delivered = () => allDelivered(site.services);

const sub = (
  email: string,
  type: 'blog_posts' | 'newsfeed' | 'all',
  frequency: 'immediate' | 'daily' | 'weekly' = 'immediate',
  extra: { guest?: boolean; isActive?: boolean; member?: Actor } = {},
) => subscribe(handle, secret, { email, type, frequency, ...extra });
const entryId = (subscription: TestSubscription, content: 'blog' | 'post', itemId: string) =>
  itemEntryId(secret, subscription, content, itemId);

describe('immediate mail', () => {
  it('reaches exactly the active immediate subscribers of the right types, once, with both unsubscribe headers; a replay sends nothing more', async () => {
    const blogReader = await sub('blog-reader@example.org', 'blog_posts');
    const feedReader = await sub('feed-reader@example.org', 'newsfeed');
    const everything = await sub('everything@example.org', 'all');
    await sub('paused@example.org', 'all', 'immediate', { isActive: false });
    const leaver = await sub('leaver@example.org', 'all');
    await unsubscribe(handle, leaver);
    await sub('daily@example.org', 'all', 'daily');
    await sub('weekly@example.org', 'blog_posts', 'weekly');
    const guest = await sub('unconfirmed-guest@example.org', 'all', 'immediate', { guest: true });

    const blogId = await publishBlogPost(handle, 'WGN at 100 <the tower>');
    const postId = await approvedFeedPost(handle, 'Found a 1962 rate card & a studio photo');
    await delivered();

    const count = (address: string) => smtp.to(address).length;
    expect(count('blog-reader@example.org')).toBe(1);
    expect(count('feed-reader@example.org')).toBe(1);
    expect(count('everything@example.org')).toBe(2);
    for (const nobody of ['paused@example.org', 'leaver@example.org', 'daily@example.org', 'weekly@example.org'])
      expect(count(nobody)).toBe(0);
    // The unconfirmed guest gets the confirmation link only.
    expect(smtp.to(guest.email).map((mail) => mail.subject)).toEqual(['Confirm your subscription to Broadcast History Community']);

    const [blogMail] = smtp.to(blogReader.email);
    expect(blogMail!.subject).toBe('New on the blog: WGN at 100 <the tower>');
    expect(blogMail!.html).toContain('WGN at 100 &lt;the tower&gt;');
    expect(blogMail!.html).toContain(`${PUBLIC_URL}/blog/${blogId}`);
    expect(blogMail!.text).toContain(`${PUBLIC_URL}/unsubscribe/${blogReader.token}`);
    expect(blogMail!.text).toContain(`${PUBLIC_URL}/subscription-settings`);
    const feedMail = smtp.to(feedReader.email)[0]!;
    expect(feedMail.text).toContain('Found a 1962 rate card & a studio photo');
    expect(feedMail.html).toContain('Found a 1962 rate card &amp; a studio photo');
    expect(feedMail.html).toContain(`${PUBLIC_URL}/posts/${postId}`);
    for (const [subscription, mails] of [blogReader, feedReader, everything].map((s): [TestSubscription, typeof smtp.received] => [
      s,
      smtp.to(s.email),
    ])) {
      for (const mail of mails) {
        expect(mail.headers.get('list-unsubscribe')).toBe(`<${PUBLIC_URL}/api/unsubscribe/${subscription.token}>`);
        expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
        expect(mail.messageId).toMatch(/^<[0-9a-f]{32}@community\.example\.org>$/);
      }
    }
    expect(new Set(smtp.received.map((mail) => mail.messageId)).size).toBe(smtp.received.length);
    const outbox = mailOutbox(site.services.store);
    expect(await outbox.findOne({ _id: entryId(everything, 'post', postId) })).toMatchObject({ status: 'sent' });

    // Replay the whole log through the mail runner (its own models dropped, checkpoint back to 0).
    const before = smtp.received.length;
    const entries = await outbox.countDocuments();
    const { runner } = site.services.subscriptionMail;
    await runner.stop();
    await runner.reset();
    await runner.start();
    await delivered();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received.length).toBe(before);
    expect(await outbox.countDocuments()).toBe(entries);
  });

  it("a guest's double opt-in: only the confirmation before confirming, item mail after", async () => {
    const guest = await sub('guest@example.org', 'blog_posts', 'immediate', { guest: true });
    await delivered();
    const [confirmation] = smtp.to(guest.email);
    expect(confirmation!.text).toContain(`${PUBLIC_URL}/subscribe/confirm/${guest.token}`);
    // Like every subscription mail it carries the one-click header, so the address can refuse at once.
    expect(confirmation!.headers.get('list-unsubscribe')).toBe(`<${PUBLIC_URL}/api/unsubscribe/${guest.token}>`);

    await publishBlogPost(handle, 'Before the guest confirmed');
    await delivered();
    expect(smtp.to(guest.email)).toHaveLength(1);

    await confirm(handle, guest);
    await publishBlogPost(handle, 'After the guest confirmed');
    await delivered();
    expect(smtp.to(guest.email).map((mail) => mail.subject)).toEqual([
      'Confirm your subscription to Broadcast History Community',
      'New on the blog: After the guest confirmed',
    ]);
    // The consent record says when the opt-in link went out.
    const history = await site.services.eventStore.readStream(streamName('subscription', guest.id));
    expect(history.map((event) => event.type)).toEqual(['SubscriptionRequested', 'EmailDelivered', 'SubscriptionConfirmed']);
  });

  it(`records each refusal as a bounce and stops mailing an address after ${MAX_BOUNCES}`, async () => {
    const bouncing = await sub('bounce-me@example.org', 'newsfeed');
    for (let i = 0; i <= MAX_BOUNCES; i++) {
      await approvedFeedPost(handle, `Post ${i} for the bouncing address`);
      await delivered();
      // The bounce is an event too: let the mail runner see it before the next publication.
      expect(await site.services.subscriptionMail.progress.waitFor(await steadyHead(site.services.eventStore), 15_000)).toBe(true);
    }
    const history = await site.services.eventStore.readStream(streamName('subscription', bouncing.id));
    expect(history.filter((event) => event.type === 'EmailBounced')).toHaveLength(MAX_BOUNCES);
    const entries = await mailOutbox(site.services.store).find({ subscriptionId: bouncing.id });
    expect(entries.map((entry) => entry.status)).toEqual(Array(MAX_BOUNCES).fill('bounced'));
  });

  it('retries a temporary refusal (4xx) and sends once, without counting a bounce', async () => {
    const deferred = await sub('deferred@example.org', 'blog_posts');
    await publishBlogPost(handle, 'Worth the wait');
    await expect.poll(() => smtp.to(deferred.email).length, { timeout: 20_000 }).toBe(1);
    await delivered();
    const history = await site.services.eventStore.readStream(streamName('subscription', deferred.id));
    expect(history.map((event) => event.type)).toEqual(['SubscriptionRequested']);
    expect(await mailOutbox(site.services.store).find({ subscriptionId: deferred.id })).toMatchObject([{ status: 'sent' }]);
  });
});

describe('digests', () => {
  it('hold exactly what is new since the previous digest, once per period, and are not sent when empty', async () => {
    const daily = await sub('digest-all@example.org', 'all', 'daily');
    const dailyBlog = await sub('digest-blog@example.org', 'blog_posts', 'daily');
    const run = async (at: string) => {
      await delivered();
      const result = await site.services.subscriptionMail.runDigest('daily', new Date(at));
      await delivered();
      return result;
    };
    // Nothing new for them yet: no digest at all. (Other tests' daily subscribers share this site, so counts are per address.)
    expect((await run('2030-03-01T13:00:00Z')).period).toBe('daily:2030-03-01');
    expect(smtp.to(daily.email)).toHaveLength(0);

    await publishBlogPost(handle, 'Digest blog one');
    await approvedFeedPost(handle, 'Digest feed one');
    await scheduleEvent(handle, 'Reunion dinner', '2030-06-01T23:00:00.000Z');
    await scheduleEvent(handle, 'Already over', '2030-02-01T23:00:00.000Z');
    expect((await run('2030-03-02T13:00:00Z')).period).toBe('daily:2030-03-02');
    const first = smtp.to(daily.email);
    expect(first).toHaveLength(1);
    expect(first[0]!.subject).toBe('Your daily digest from Broadcast History Community: 1 blog post, 1 feed post, 1 upcoming event');
    expect(first[0]!.text).toContain('Digest blog one');
    expect(first[0]!.text).toContain('Digest feed one');
    expect(first[0]!.text).toContain('Reunion dinner');
    expect(first[0]!.text).not.toContain('Already over');
    expect(first[0]!.headers.get('list-unsubscribe')).toBe(`<${PUBLIC_URL}/api/unsubscribe/${daily.token}>`);
    expect(smtp.to(dailyBlog.email).map((mail) => mail.subject)).toEqual([
      'Your daily digest from Broadcast History Community: 1 blog post',
    ]);

    // Same period again, even with something new since: nothing more this period.
    await publishBlogPost(handle, 'Digest blog two');
    expect((await run('2030-03-02T20:00:00Z')).written).toBe(0);
    expect(smtp.to(daily.email)).toHaveLength(1);

    // Next day: only what is new since the previous digest.
    await run('2030-03-03T13:00:00Z');
    const second = smtp.to(daily.email)[1]!;
    expect(second.subject).toBe('Your daily digest from Broadcast History Community: 1 blog post');
    expect(second.text).toContain('Digest blog two');
    expect(second.text).not.toContain('Digest blog one');

    // And a day with nothing new sends nothing.
    expect((await run('2030-03-04T13:00:00Z')).written).toBe(0);
    expect(smtp.to(daily.email)).toHaveLength(2);
    expect(smtp.to(dailyBlog.email)).toHaveLength(2);
  });
});

describe('a digest run that stopped half-way', () => {
  it('is finished by the next run without mailing anyone what they already got', async () => {
    const got = await sub('digest-before-crash@example.org', 'blog_posts', 'daily');
    const missed = await sub('digest-missed-by-crash@example.org', 'blog_posts', 'daily');
    const run = async (at: string) => {
      await delivered();
      await site.services.subscriptionMail.runDigest('daily', new Date(at));
      await delivered();
    };
    const runs = site.services.store.collection<DigestRuns>(MAIL_DIGEST_RUNS);
    const before = await runs.findOne({ _id: 'daily' });
    await publishBlogPost(handle, 'Crash day column');
    await run('2032-01-01T13:00:00Z');
    expect(smtp.to(got.email)).toHaveLength(1);
    expect(smtp.to(missed.email)).toHaveLength(1);

    // As if that run had stopped after writing one digest: the other entry never written, the run never marked finished.
    await mailOutbox(site.services.store).deleteOne({ _id: `digest:${missed.id}:daily:2032-01-01` });
    await runs.updateOne({ _id: 'daily' }, { $set: { finished: before?.finished ?? null } });

    await publishBlogPost(handle, 'Day after column');
    await run('2032-01-02T13:00:00Z');
    const [, next] = smtp.to(got.email);
    expect(next!.subject).toBe('Your daily digest from Broadcast History Community: 1 blog post');
    expect(next!.text).toContain('Day after column');
    expect(next!.text).not.toContain('Crash day column');
    const [, late] = smtp.to(missed.email);
    expect(late!.subject).toBe('Your daily digest from Broadcast History Community: 2 blog posts');
    expect(late!.text).toContain('Crash day column');
  });
});

describe("an author's own content", () => {
  it('is not mailed to its author at once, while the other subscribers get it', async () => {
    const editor: Actor = { id: randomUUID(), role: 'staff' };
    const author = await sub('own-post-author@example.org', 'all');
    const editorSubscription = await sub('own-blog-author@example.org', 'all', 'immediate', { member: editor });
    const reader = await sub('own-content-reader@example.org', 'all');
    const ownPost = await approvedFeedPost(handle, 'An aircheck I found myself', author.actor!);
    await approvedFeedPost(handle, 'An aircheck somebody else found');
    const ownColumn = await publishBlogPost(handle, 'A column the editor wrote', undefined, editor);
    await delivered();

    // In any order: the worker sends more than one mail at a time.
    const subjects = (address: string) =>
      smtp
        .to(address)
        .map((mail) => mail.subject)
        .sort();
    expect(subjects(author.email)).toEqual([
      'New in the newsfeed: An aircheck somebody else found',
      'New on the blog: A column the editor wrote',
    ]);
    expect(subjects(editorSubscription.email)).toEqual([
      'New in the newsfeed: An aircheck I found myself',
      'New in the newsfeed: An aircheck somebody else found',
    ]);
    expect(subjects(reader.email)).toHaveLength(3);
    // Left out when the fan-out is written, not dropped when sending: there is no outbox entry at all.
    const outbox = mailOutbox(site.services.store);
    expect(await outbox.findOne({ _id: entryId(author, 'post', ownPost) })).toBeNull();
    expect(await outbox.findOne({ _id: entryId(editorSubscription, 'blog', ownColumn) })).toBeNull();
  });

  it("is left out of its author's digest, which keeps everybody else's", async () => {
    const member: Actor = { id: randomUUID(), role: 'member' };
    const editor: Actor = { id: randomUUID(), role: 'staff' };
    const memberDigest = await sub('own-digest-member@example.org', 'all', 'daily', { member });
    const editorDigest = await sub('own-digest-editor@example.org', 'all', 'daily', { member: editor });
    await approvedFeedPost(handle, 'A find the member posted', member);
    await publishBlogPost(handle, 'A column the editor published', undefined, editor);
    await scheduleEvent(handle, 'A meetup the editor organises', '2031-06-01T23:00:00.000Z', editor);
    await delivered();
    await site.services.subscriptionMail.runDigest('daily', new Date('2031-01-10T13:00:00Z'));
    await delivered();

    const [memberMail, ...moreForMember] = smtp.to(memberDigest.email);
    expect(moreForMember).toHaveLength(0);
    expect(memberMail!.subject).toBe('Your daily digest from Broadcast History Community: 1 blog post, 1 upcoming event');
    expect(memberMail!.text).toContain('A column the editor published');
    expect(memberMail!.text).toContain('A meetup the editor organises');
    expect(memberMail!.text).not.toContain('A find the member posted');

    const [editorMail, ...moreForEditor] = smtp.to(editorDigest.email);
    expect(moreForEditor).toHaveLength(0);
    expect(editorMail!.subject).toBe('Your daily digest from Broadcast History Community: 1 feed post');
    expect(editorMail!.text).toContain('A find the member posted');
    expect(editorMail!.text).not.toContain('A column the editor published');
    expect(editorMail!.text).not.toContain('A meetup the editor organises');
  });
});

describe('the outbox is the truth', () => {
  it('a queued entry is sent by the sweeper without any job, and not at all once its subscription has ended', async () => {
    const reader = await sub('swept@example.org', 'blog_posts');
    const leaver = await sub('gone-before-sending@example.org', 'blog_posts');
    const blogId = await publishBlogPost(handle, 'Swept up');
    await delivered();
    await unsubscribe(handle, leaver);
    await delivered();
    // Entries written while Redis was unreachable: in the outbox, never enqueued.
    const outbox = mailOutbox(site.services.store);
    await outbox.deleteMany({ subscriptionId: { $in: [reader.id, leaver.id] } });
    const sentBefore = smtp.received.length;
    await outbox.insertMany([
      newOutboxEntry(reader.id, itemCause(secret, reader, 'blog', blogId), new Date()),
      newOutboxEntry(leaver.id, itemCause(secret, leaver, 'blog', blogId), new Date()),
    ]);
    await site.services.subscriptionMail.sweep();
    await delivered();
    expect(await outbox.findOne({ _id: entryId(leaver, 'blog', blogId) })).toMatchObject({ status: 'dropped' });
    expect(await outbox.findOne({ _id: entryId(reader, 'blog', blogId) })).toMatchObject({ status: 'sent' });
    expect(smtp.received.slice(sentBefore).map((mail) => mail.to)).toEqual([reader.email]);
  });

  it('a batch sends what is due and free, drops what is no longer wanted, skips what is finished, and hands back what another sender holds and what the relay deferred', async () => {
    const reader = await sub('batch-reader@example.org', 'blog_posts');
    const leaver = await sub('batch-leaver@example.org', 'blog_posts');
    const alreadySent = await sub('batch-sent@example.org', 'blog_posts');
    const held = await sub('batch-held@example.org', 'blog_posts');
    const deferred = await sub('batch-deferred@example.org', 'blog_posts');
    const blogId = await publishBlogPost(handle, 'In one batch');
    await delivered();
    await unsubscribe(handle, leaver);
    await delivered();
    const outbox = mailOutbox(site.services.store);
    const idOf = (subscription: TestSubscription) => entryId(subscription, 'blog', blogId);
    // Queued again, as if never sent, and left to the run below alone; one of them held by another sender for a minute.
    const again = [reader, leaver, held, deferred];
    await outbox.deleteMany({ _id: { $in: again.map(idOf) } });
    await outbox.insertMany(
      again.map((subscription) => newOutboxEntry(subscription.id, itemCause(secret, subscription, 'blog', blogId), new Date())),
    );
    const heldUntil = Date.now() + 60_000;
    await outbox.updateOne({ _id: idOf(held) }, { $set: { claimedUntil: heldUntil, claim: 'another sender' } });
    const relay = await startCountingSmtp({ deferOnce: (address) => address.startsWith('batch-deferred') });
    const transport = createTransport(`smtp://127.0.0.1:${relay.port}`, 0);
    try {
      const report = await site.services.subscriptionMail.delivery(transport)([
        ...[reader, leaver, alreadySent, held, deferred].map(idOf),
        'item:nobody:blog:none',
      ]);
      expect(report).toMatchObject({
        sent: 1,
        bounced: 0,
        dropped: 1,
        done: 2,
        later: { outboxIds: [idOf(held)], until: heldUntil },
        failed: { outboxIds: [idOf(deferred)] },
      });
      expect(relay.received.map((mail) => mail.to)).toEqual([reader.email]);
      expect(await outbox.findOne({ _id: idOf(reader) })).toMatchObject({ status: 'sent', sentAt: expect.any(String) });
      expect(await outbox.findOne({ _id: idOf(leaver) })).toMatchObject({ status: 'dropped' });
      expect(await outbox.findOne({ _id: idOf(held) })).toMatchObject({
        status: 'queued',
        claim: 'another sender',
        claimedUntil: heldUntil,
      });
      // Released at once for the job's retry, without waiting out its lease.
      const released = await outbox.findOne({ _id: idOf(deferred) });
      expect(released).toMatchObject({ status: 'queued' });
      expect(released).not.toHaveProperty('claimedUntil');
      expect(released).not.toHaveProperty('claim');
      for (const id of [idOf(reader), idOf(leaver)]) expect(await outbox.findOne({ _id: id })).not.toHaveProperty('claim');
    } finally {
      transport.close();
      await relay.close();
      await outbox.deleteMany({ _id: { $in: [idOf(held), idOf(deferred)] } });
    }
  });

  it('an entry whose relay is slower than the claim lease is sent once: its sender keeps renewing the claim', async () => {
    const reader = await sub('slow-relay@example.org', 'blog_posts');
    const blogId = await publishBlogPost(handle, 'Through a slow relay');
    await delivered();
    const outbox = mailOutbox(site.services.store);
    const id = entryId(reader, 'blog', blogId);
    // Queued again, as if never sent, and left to the two senders below alone.
    await outbox.deleteOne({ _id: id });
    await outbox.insertOne(newOutboxEntry(reader.id, itemCause(secret, reader, 'blog', blogId), new Date()));
    const sentBefore = smtp.to(reader.email).length;
    const slow = await startCountingSmtp({ delayMs: CLAIM_LEASE_MS + 2_000 });
    const slowTransport = createTransport(`smtp://127.0.0.1:${slow.port}`, 0);
    const fastTransport = createTransport(`smtp://127.0.0.1:${smtp.port}`, 0);
    try {
      const first = site.services.subscriptionMail.delivery(slowTransport)([id]);
      await new Promise((resolve) => setTimeout(resolve, CLAIM_LEASE_MS + 1_000));
      // Past the first lease, another sender finds the entry still claimed, until a time still to come.
      const second = await site.services.subscriptionMail.delivery(fastTransport)([id]);
      expect(second).toMatchObject({ sent: 0, done: 0, later: { outboxIds: [id] } });
      expect(second.later!.until).toBeGreaterThan(Date.now());
      expect(await first).toEqual({ sent: 1, bounced: 0, dropped: 0, done: 0 });
      expect(await site.services.subscriptionMail.delivery(fastTransport)([id])).toEqual({ sent: 0, bounced: 0, dropped: 0, done: 1 });
      expect(slow.to(reader.email)).toHaveLength(1);
      expect(smtp.to(reader.email)).toHaveLength(sentBefore);
    } finally {
      slowTransport.close();
      fastTransport.close();
      await slow.close();
    }
  });

  it('a publication older than a day, met when the runner replays an old log, mails nobody', async () => {
    await sub('history@example.org', 'all');
    await delivered();
    const blogId = '00000000-0000-4000-8000-000000000001';
    const old: RecordedEvent = {
      id: 'e1',
      streamName: streamName('blog', blogId),
      version: 1,
      position: Number.MAX_SAFE_INTEGER,
      type: 'BlogPostPublished',
      data: { publishedAt: '2020-01-01T00:00:00.000Z', firstPublication: true, by: 'x', at: '2020-01-01T00:00:00.000Z' },
      metadata: {},
      createdAt: new Date(Date.now() - HISTORY_AGE_MS - 60_000),
    };
    const enqueued: string[][] = [];
    const reactor = createMailReactor({
      enqueue: async (ids) => void enqueued.push(ids),
      onEnqueueError: () => undefined,
      now: () => new Date(),
      linkSecret: secret,
    });
    await reactor.apply(old, { store: site.services.store, notify: () => undefined, live: false });
    expect(enqueued).toEqual([]);
    expect(await mailOutbox(site.services.store).countDocuments({ 'cause.itemId': blogId })).toBe(0);
  });

  it('schedules the daily and weekly digests in the site time zone, again after a Redis reconnect', async () => {
    const { queue } = site.services.mail;
    expect(await queue.getJobScheduler('digest-daily')).toMatchObject({ pattern: '0 7 * * *', tz: 'America/Chicago' });
    expect(await queue.getJobScheduler('digest-weekly')).toMatchObject({ pattern: '0 7 * * 1', tz: 'America/Chicago' });
    // A restarted Redis has lost them: the next 'ready' puts them back.
    await queue.removeJobScheduler('digest-daily');
    await queue.removeJobScheduler('digest-weekly');
    site.services.redis.disconnect(true);
    await expect.poll(() => queue.getJobScheduler('digest-daily'), { timeout: 10_000 }).toMatchObject({ pattern: '0 7 * * *' });
    await expect.poll(() => queue.getJobScheduler('digest-weekly'), { timeout: 10_000 }).toMatchObject({ pattern: '0 7 * * 1' });
  });
});

describe('several worker processes', () => {
  it('run one mail runner; another takes over when it stops', async () => {
    expect(site.services.subscriptionMail.leading()).toBe(true);
    const second = await workerProcessOf(site, { PUBLIC_URL });
    await afterMailRunnerTakeOver(site, second, async () => {
      const reader = await sub('after-take-over@example.org', 'blog_posts');
      await publishBlogPost(handle, 'Decided by the other process');
      await expect
        .poll(() => smtp.to(reader.email).map((mail) => mail.subject), { timeout: 15_000 })
        .toEqual(['New on the blog: Decided by the other process']);
    });
  });
});
