/**
 * One item reaches one address once, whatever subscriptions of it overlap (issue 32): a member's "Blog Posts" and
 * "All Updates", a member's subscription and a guest's of the same address, an immediate subscription beside a digest.
 * The whole site runs here, mailing a counting SMTP server; the outbox entry of item mail is keyed by address and item,
 * so a replay of the mail runner, whichever subscription it picks, finds the id taken.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSite } from '../../support/site';
import type { Actor } from '../../../shared/domain';
import { mailOutbox } from '../../../workers/subscriptions/outbox';
import {
  allDelivered,
  approvedFeedPost,
  confirm,
  itemEntryId,
  publishBlogPost,
  subscribe,
  type Commands,
  type CountingSmtp,
  startMailingSite,
  closeMailingSite,
} from './delivery-fixtures';

let smtp: CountingSmtp;
let site: TestSite;
let handle: Commands;
let secret: string;

beforeAll(async () => {
  ({ smtp, site, handle, secret } = await startMailingSite({ TIME_ZONE: 'America/Chicago' }));
});
afterAll(() => closeMailingSite(site, smtp));

const delivered = () => allDelivered(site.services);
const member = (): Actor => ({ id: randomUUID(), role: 'member' });
const sub = (
  email: string,
  type: 'blog_posts' | 'newsfeed' | 'all',
  frequency: 'immediate' | 'daily' | 'weekly',
  extra: { guest?: boolean; member?: Actor } = {},
) => subscribe(handle, secret, { email, type, frequency, ...extra });
/** How many mails to `address` mention `text`. */
const mentions = (address: string, text: string) => smtp.to(address).filter((mail) => mail.text.includes(text)).length;

describe('immediate mail', () => {
  it('goes once per address and item across overlapping subscriptions, and a replay of the mail runner sends nothing more', async () => {
    const reader = member();
    const blogOnly = await sub('overlap@example.org', 'blog_posts', 'immediate', { member: reader });
    await sub('overlap@example.org', 'all', 'immediate', { member: reader });
    // The same address subscribed again with the form, signed out, and confirmed.
    const guest = await sub('overlap@example.org', 'all', 'immediate', { guest: true });
    await confirm(handle, guest);
    const neighbour = await sub('neighbour@example.org', 'all', 'immediate');
    await delivered();

    const blogId = await publishBlogPost(handle, 'Overlapping column');
    const postId = await approvedFeedPost(handle, 'Overlapping aircheck');
    await delivered();

    const address = 'overlap@example.org';
    expect(
      smtp
        .to(address)
        .filter((mail) => mail.subject.startsWith('New on the blog'))
        .map((mail) => mail.subject),
    ).toEqual(['New on the blog: Overlapping column']);
    expect(
      smtp
        .to(address)
        .filter((mail) => mail.subject.startsWith('New in the newsfeed'))
        .map((mail) => mail.subject),
    ).toEqual(['New in the newsfeed: Overlapping aircheck']);
    expect(smtp.to(neighbour.email)).toHaveLength(2);
    // One outbox entry per address and item, for the member's subscription (its link leads to the settings page).
    const outbox = mailOutbox(site.services.store);
    expect(await outbox.countDocuments({ 'cause.itemId': blogId })).toBe(2);
    expect(await outbox.findOne({ _id: itemEntryId(secret, blogOnly, 'blog', blogId) })).toMatchObject({ status: 'sent' });
    expect(await outbox.countDocuments({ 'cause.itemId': postId })).toBe(2);
    expect(smtp.to(address).find((mail) => mail.subject.startsWith('New on the blog'))!.text).toContain('/subscription-settings');

    // Replay the whole log through the mail runner, its own models dropped: the same ids, nothing sent again.
    const before = smtp.received.length;
    const { runner } = site.services.subscriptionMail;
    await runner.stop();
    await runner.reset();
    await runner.start();
    await delivered();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.length).toBe(before);
  });
});

describe('digests', () => {
  const run = async (at: string) => {
    await delivered();
    await site.services.subscriptionMail.runDigest('daily', new Date(at));
    await delivered();
  };

  it('of one address do not repeat an item in one period, nor what the address got at once', async () => {
    const reader = member();
    await sub('digest-overlap@example.org', 'blog_posts', 'daily', { member: reader });
    await sub('digest-overlap@example.org', 'all', 'daily', { member: reader });
    const eager = member();
    await sub('eager@example.org', 'blog_posts', 'immediate', { member: eager });
    await sub('eager@example.org', 'all', 'daily', { member: eager });
    await run('2033-05-01T13:00:00Z');

    await publishBlogPost(handle, 'Digest overlap column');
    await approvedFeedPost(handle, 'Digest overlap aircheck');
    await run('2033-05-02T13:00:00Z');

    expect(mentions('digest-overlap@example.org', 'Digest overlap column')).toBe(1);
    expect(mentions('digest-overlap@example.org', 'Digest overlap aircheck')).toBe(1);
    // Mailed at once, so left out of its digest, which keeps the feed post.
    expect(mentions('eager@example.org', 'Digest overlap column')).toBe(1);
    expect(smtp.to('eager@example.org').map((mail) => mail.subject)).toEqual([
      'New on the blog: Digest overlap column',
      'Your daily digest from Broadcast History Community: 1 feed post',
    ]);

    // A second run of the period writes nothing more.
    const before = smtp.received.length;
    await run('2033-05-02T20:00:00Z');
    expect(smtp.received.length).toBe(before);
  });

  it('a weekly digest leaves out what a daily digest of the same address carries', async () => {
    const reader = member();
    await sub('daily-and-weekly@example.org', 'blog_posts', 'daily', { member: reader });
    await sub('daily-and-weekly@example.org', 'all', 'weekly', { member: reader });
    const weekly = async (at: string) => {
      await delivered();
      await site.services.subscriptionMail.runDigest('weekly', new Date(at));
      await delivered();
    };
    await run('2033-06-01T13:00:00Z');
    await weekly('2033-06-01T13:00:00Z');
    await publishBlogPost(handle, 'Weekly overlap column');
    await approvedFeedPost(handle, 'Weekly overlap aircheck');
    await run('2033-06-02T13:00:00Z');
    await weekly('2033-06-06T13:00:00Z');
    expect(mentions('daily-and-weekly@example.org', 'Weekly overlap column')).toBe(1);
    expect(mentions('daily-and-weekly@example.org', 'Weekly overlap aircheck')).toBe(1);
    expect(smtp.to('daily-and-weekly@example.org').map((mail) => mail.subject)).toEqual([
      'Your daily digest from Broadcast History Community: 1 blog post',
      'Your weekly digest from Broadcast History Community: 1 feed post',
    ]);
  });
});
