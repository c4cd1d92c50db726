/**
 * The outbox's retention against real PostgreSQL and a real SMTP server: sent mail older than
 * MAIL_OUTBOX_RETENTION_DAYS is pruned, in batches, while what is still to send, what bounced and what is recent stays;
 * and nothing is mailed twice or missed because of it — neither a post approved again, nor the next daily and weekly
 * digests, nor the run after a digest run that stopped half-way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestSite, workerProcessOf } from '../../support/site';
import { streamName } from '../../../shared/streams';
import { postDecider } from '../../../shared/feed/post-stream';
import { mailOutbox, newOutboxEntry, type OutboxEntry } from '../../../workers/subscriptions/outbox';
import { MAIL_DIGEST_RUNS, type DigestRuns } from '../../../workers/subscriptions/digests';
import {
  allDelivered,
  approvedFeedPost,
  itemCause,
  itemEntryId,
  publishBlogPost,
  staff,
  subscribe,
  type Commands,
  type CountingSmtp,
  startMailingSite,
  closeMailingSite,
  afterMailRunnerTakeOver,
} from './delivery-fixtures';

const RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

let smtp: CountingSmtp;
let site: TestSite;
let handle: Commands;

beforeAll(async () => {
  ({ smtp, site, handle } = await startMailingSite(
    { TIME_ZONE: 'America/Chicago', MAIL_OUTBOX_RETENTION_DAYS: String(RETENTION_DAYS) },
    { refuse: (address) => address.startsWith('bounce') },
  ));
});
afterAll(() => closeMailingSite(site, smtp));

const outbox = () => mailOutbox(site.services.store);
const secret = () => site.services.config.subscriptionLinkSecret;
const sub = (email: string, type: 'blog_posts' | 'newsfeed' | 'all', frequency: 'immediate' | 'daily' | 'weekly' = 'immediate') =>
  subscribe(handle, site.services.config.subscriptionLinkSecret, { email, type, frequency });
/** A prune run as the mail runner runs it, on a day `days` after `from`. */
const pruneAt = (from: number, days: number) => site.services.subscriptionMail.pruneOutbox(new Date(from + days * DAY_MS));

const delivered = () => allDelivered(site.services);

describe('pruning the outbox', () => {
  it('removes mail sent longer ago than the retention, in batches, and keeps what is still to send, what bounced and what is recent', async () => {
    const reader = await sub('retention-reader@example.org', 'blog_posts');
    const bouncing = await sub('bounce-retention@example.org', 'blog_posts');
    const olderPost = await publishBlogPost(handle, 'The 1948 sign-on');
    await delivered();
    const older = (await outbox().findOne({ _id: itemEntryId(secret(), reader, 'blog', olderPost) }))!;
    expect(older.status).toBe('sent');
    expect(await outbox().findOne({ _id: itemEntryId(secret(), bouncing, 'blog', olderPost) })).toMatchObject({ status: 'bounced' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const newerPost = await publishBlogPost(handle, 'The 1949 tower');
    await delivered();
    const newer = (await outbox().findOne({ _id: itemEntryId(secret(), reader, 'blog', newerPost) }))!;
    // Many more sent long ago than one batch deletes, and one still to send.
    const sentLongAgo = new Date(Date.parse(older.sentAt!) - DAY_MS).toISOString();
    const backlog: OutboxEntry[] = Array.from({ length: 2500 }, (_, i) => ({
      ...newOutboxEntry(reader.id, itemCause(secret(), reader, 'post', `archived-${i}`), new Date(sentLongAgo)),
      status: 'sent',
      sentAt: sentLongAgo,
    }));
    await outbox().insertMany(backlog);
    const queued = newOutboxEntry(reader.id, itemCause(secret(), reader, 'post', 'still-to-send'), new Date(sentLongAgo));
    await outbox().insertOne(queued);

    // The retention not yet over for any of them: nothing goes.
    expect(await pruneAt(Date.parse(backlog[0]!.sentAt!), RETENTION_DAYS - 0.5)).toBe(0);
    // Over for the older post's mail and the backlog, not for the newer post's.
    const between = (Date.parse(older.sentAt!) + Date.parse(newer.sentAt!)) / 2;
    expect(await pruneAt(between, RETENTION_DAYS)).toBe(backlog.length + 1);

    expect(await outbox().countDocuments({ _id: { $in: [older._id, ...backlog.map((entry) => entry._id)] } })).toBe(0);
    expect(await outbox().findOne({ _id: newer._id })).toMatchObject({ status: 'sent' });
    expect(await outbox().findOne({ _id: queued._id })).toMatchObject({ status: 'queued' });
    expect(await outbox().findOne({ _id: itemEntryId(secret(), bouncing, 'blog', olderPost) })).toMatchObject({ status: 'bounced' });
    await outbox().deleteOne({ _id: queued._id });
  });

  it('does not mail a post again when it is approved again after its mail was pruned', async () => {
    const reader = await sub('retention-feed@example.org', 'newsfeed');
    const postId = await approvedFeedPost(handle, 'A 1962 rate card');
    await delivered();
    expect(smtp.to(reader.email)).toHaveLength(1);
    await pruneAt(Date.now(), RETENTION_DAYS + 1);
    expect(await outbox().findOne({ _id: itemEntryId(secret(), reader, 'post', postId) })).toBeNull();

    const stream = streamName('post', postId);
    await handle(postDecider, stream, { type: 'RejectPost', data: {}, metadata: { now: new Date(), actor: staff } });
    await handle(postDecider, stream, { type: 'ApprovePost', data: {}, metadata: { now: new Date(), actor: staff } });
    await delivered();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to(reader.email)).toHaveLength(1);
    expect(await outbox().findOne({ _id: itemEntryId(secret(), reader, 'post', postId) })).toBeNull();
  });

  it('is done by the worker process that takes over the mail runner, without being asked', async () => {
    const reader = await sub('retention-take-over@example.org', 'blog_posts');
    const sentLongAgo = new Date(Date.now() - (RETENTION_DAYS + 1) * DAY_MS).toISOString();
    const old: OutboxEntry = {
      ...newOutboxEntry(reader.id, itemCause(secret(), reader, 'blog', 'long-gone'), new Date(sentLongAgo)),
      status: 'sent',
      sentAt: sentLongAgo,
    };
    await outbox().insertOne(old);
    const second = await workerProcessOf(site, { SMTP_URL: site.services.config.smtpUrl });
    await afterMailRunnerTakeOver(site, second, async () => {
      await expect.poll(() => outbox().findOne({ _id: old._id }), { timeout: 10_000 }).toBeNull();
    });
  });
});

describe('digests after a prune', () => {
  const run = async (frequency: 'daily' | 'weekly', at: string) => {
    await delivered();
    await site.services.subscriptionMail.runDigest(frequency, new Date(at));
    await delivered();
  };
  const texts = (address: string) => smtp.to(address).map((mail) => mail.text);

  it('hold exactly what is new, daily and weekly: no repeats, nothing missed', async () => {
    const daily = await sub('retention-daily@example.org', 'blog_posts', 'daily');
    const weekly = await sub('retention-weekly@example.org', 'blog_posts', 'weekly');
    await publishBlogPost(handle, 'Column one');
    await run('daily', '2034-05-01T13:00:00Z');
    await run('weekly', '2034-05-01T13:00:00Z');
    await publishBlogPost(handle, 'Column two');
    await run('daily', '2034-05-02T13:00:00Z');
    await run('weekly', '2034-05-08T13:00:00Z');
    expect(smtp.to(daily.email)).toHaveLength(2);
    expect(smtp.to(weekly.email)).toHaveLength(2);

    await pruneAt(Date.now(), RETENTION_DAYS + 1);
    expect(await outbox().findOne({ _id: `digest:${daily.id}:daily:2034-05-01` })).toBeNull();
    expect(await outbox().findOne({ _id: `digest:${weekly.id}:weekly:2034-05-01` })).toBeNull();

    await publishBlogPost(handle, 'Column three');
    await run('daily', '2034-05-03T13:00:00Z');
    await run('weekly', '2034-05-15T13:00:00Z');
    for (const subscription of [daily, weekly]) {
      const [first, second, third, ...more] = texts(subscription.email);
      expect(more).toEqual([]);
      expect(
        [first, second, third].map((text) => ['Column one', 'Column two', 'Column three'].filter((title) => text!.includes(title))),
      ).toEqual([['Column one'], ['Column two'], ['Column three']]);
    }
    // A later run of the same period writes nothing again, pruned or not.
    await pruneAt(Date.now(), RETENTION_DAYS + 1);
    await run('daily', '2034-05-03T20:00:00Z');
    expect(smtp.to(daily.email)).toHaveLength(3);
  });

  it('keep the entries of a run that stopped half-way, so that the next run repeats nothing to those it reached', async () => {
    const reached = await sub('retention-reached@example.org', 'blog_posts', 'daily');
    const missed = await sub('retention-missed@example.org', 'blog_posts', 'daily');
    const runs = site.services.store.collection<DigestRuns>(MAIL_DIGEST_RUNS);
    await publishBlogPost(handle, 'Before the crash');
    await run('daily', '2034-06-01T13:00:00Z');
    const before = (await runs.findOne({ _id: 'daily' }))!;
    await publishBlogPost(handle, 'On the crash day');
    await run('daily', '2034-06-02T13:00:00Z');
    // As if that run had stopped after one digest: the other never written, the run never marked finished.
    await outbox().deleteOne({ _id: `digest:${missed.id}:daily:2034-06-02` });
    await runs.updateOne({ _id: 'daily' }, { $set: { finished: before.finished } });

    // The next run comes after the retention is over for the crashed run's mail.
    await pruneAt(Date.now(), RETENTION_DAYS + 1);
    expect(await outbox().findOne({ _id: `digest:${reached.id}:daily:2034-06-01` })).toBeNull();
    expect(await outbox().findOne({ _id: `digest:${reached.id}:daily:2034-06-02` })).toMatchObject({ status: 'sent' });

    await publishBlogPost(handle, 'After the crash');
    await run('daily', '2034-06-03T13:00:00Z');
    const [, , next] = texts(reached.email);
    expect(next).toContain('After the crash');
    expect(next).not.toContain('On the crash day');
    const [, , late] = texts(missed.email);
    expect(late).toContain('On the crash day');
    expect(late).toContain('After the crash');
  });
});
