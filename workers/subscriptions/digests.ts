/**
 * Daily and weekly digests. A run for period P (`daily:2026-11-22`, `weekly:2026-11-16` — the Monday — in the
 * site's time zone) writes one outbox entry `digest:<subscriptionId>:<P>` per deliverable subscription of that
 * frequency that has something new: blog posts and feed posts (as its type covers them) and upcoming public events
 * announced after its cursor, but for the subscriber's own, and for a member the replies in topics they watch that
 * waited for this frequency (workers/discussions/watcher-mail.ts). The cursor is the mail-runner position the previous
 * run of that frequency covered (see DigestRuns), or where the subscription's mail started, whichever is later. An
 * empty digest is not written, and a second run in the same period writes nothing, since the entry's id is taken.
 *
 * One item reaches one address once: of several subscriptions of one address (a member's "Blog Posts" and "All
 * Updates", a member's and a guest's), the preferred one (preferredFirst) gets an item in this period's digest and the
 * others leave it out, and an item the address gets more often (an `immediate` subscription of it, or for a weekly
 * digest a daily one, covering the item and mailing since before the item was announced) is left out. Both are decided from mail_recipients and
 * this period's entries, so a second run of the period decides as the first did.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { dayKey } from '../../shared/events/dates';
import { coversContent } from '../../shared/subscriptions/subscription-stream';
import { insertNewEntries, mailOutbox, newOutboxEntry, outboxId, type DigestItems, type OutboxEntry } from './outbox';
import { mailRecipients, type MailRecipient } from './recipients';
import { isOwnItem, mailItemId, mailItems, type MailItem } from './items';
import { byAddress } from './reactor';
import { mailDigestReplies } from '../discussions/watcher-mail';

export type DigestFrequency = 'daily' | 'weekly';

/** The digest period `now` falls in, read in `timeZone`; weekly periods are named by their Monday. */
export function digestPeriod(frequency: DigestFrequency, now: Date, timeZone: string): string {
  const day = dayKey(now, timeZone);
  if (frequency === 'daily') return `daily:${day}`;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const utc = new Date(Date.UTC(year, month - 1, date));
  const sinceMonday = (utc.getUTCDay() + 6) % 7;
  return `weekly:${new Date(utc.getTime() - sinceMonday * 86_400_000).toISOString().slice(0, 10)}`;
}

/** What one subscriber's digest holds: the items announced after its cursor that its type covers, but for their own. */
export function digestItems(
  recipient: Pick<MailRecipient, 'subscriptionType' | 'memberId'>,
  cursor: number,
  items: readonly MailItem[],
  now: Date,
): DigestItems {
  const fresh = items.filter(
    (item) => item.visible && item.announcedAt !== null && item.announcedAt > cursor && !isOwnItem(recipient, item),
  );
  const ids = (kind: MailItem['kind']) => fresh.filter((item) => item.kind === kind).map((item) => item.itemId);
  const feed = coversContent(recipient.subscriptionType, 'newsfeed');
  return {
    blog: coversContent(recipient.subscriptionType, 'blog_posts') ? ids('blog') : [],
    posts: feed ? ids('post') : [],
    // Events are community news, like the feed: they come with the feed's coverage, and only while still ahead.
    events: feed
      ? fresh
          .filter((item) => item.kind === 'event' && item.startDate !== null && new Date(item.startDate) > now)
          .map((item) => item.itemId)
      : [],
  };
}

export const isEmptyDigest = (items: DigestItems) =>
  items.blog.length + items.posts.length + items.events.length + (items.replies?.length ?? 0) === 0;

export const MAIL_DIGEST_RUNS = 'mail_digest_runs';

/** A digest run: its period and the mail-runner position it covered. */
type RunMark = { period: string; upTo: number };

/**
 * The runs of one frequency: the last one `started`, and the last one that `finished` writing its entries. Every
 * subscription deliverable at a finished run was covered up to its `upTo` (an empty digest means nothing new for that
 * subscriber up to there), so one document replaces looking up every subscriber's past digests. Like the outbox it
 * belongs to no projection: no rebuild drops it.
 */
export type DigestRuns = { _id: DigestFrequency; started: RunMark; finished: RunMark | null };

const CHUNK = 1000;

/**
 * The periods whose digest entries must outlive the outbox's retention: the period each frequency's last run started.
 * Until a run of that frequency finishes after it, the next run looks that run's entries up by id to know whom it
 * covered (coveredByUnfinishedRun), however long ago it stopped.
 */
export async function digestPeriodsInUse(store: DocumentStore): Promise<string[]> {
  return (await store.collection<DigestRuns>(MAIL_DIGEST_RUNS).find({})).map((runs) => runs.started.period);
}

/**
 * Digests written by a run that did not finish (a crash mid-run), by subscription: their subscriptions are covered up to
 * it too, and what they hold is not repeated to the same address by this period's other digests.
 */
async function writtenByUnfinishedRun(
  store: DocumentStore,
  runs: DigestRuns | null,
  subscriptionIds: string[],
): Promise<Map<string, DigestItems>> {
  const written = new Map<string, DigestItems>();
  if (!runs || runs.finished?.period === runs.started.period) return written;
  for (let i = 0; i < subscriptionIds.length; i += CHUNK) {
    const ids = subscriptionIds.slice(i, i + CHUNK).map((id) => outboxId(id, { kind: 'digest', period: runs.started.period }));
    for (const entry of await mailOutbox(store).find({ _id: { $in: ids } })) {
      if (entry.cause.kind === 'digest') written.set(entry.subscriptionId, entry.cause.items);
    }
  }
  return written;
}

/** The item ids of a digest, as mail_items names them. */
const digestItemIds = (items: DigestItems) => [
  ...(items.replies ?? []).map((id) => `reply:${id}`),
  ...items.blog.map((id) => mailItemId('blog', id)),
  ...items.posts.map((id) => mailItemId('post', id)),
  ...items.events.map((id) => mailItemId('event', id)),
];

/** The digest without the items in `taken`. */
const without = (items: DigestItems, taken: Set<string>): DigestItems => ({
  blog: items.blog.filter((id) => !taken.has(mailItemId('blog', id))),
  posts: items.posts.filter((id) => !taken.has(mailItemId('post', id))),
  events: items.events.filter((id) => !taken.has(mailItemId('event', id))),
});

export interface DigestRunOptions {
  store: DocumentStore;
  frequency: DigestFrequency;
  now: Date;
  timeZone: string;
  /**
   * Where the mail runner has got to: a digest covers what it has seen. (Its stored summary is written after the
   * position is reached, so reading that could leave out what was just announced.)
   */
  reached(): Promise<number>;
  enqueue(outboxIds: string[]): Promise<void>;
  /** Keys the addresses (mailAddressKey), to tell subscriptions of one address. */
  linkSecret: string;
}

/** Writes this period's digests and enqueues them; returns the period and how many digests were written. */
export async function runDigest({ store, frequency, now, timeZone, reached, enqueue, linkSecret }: DigestRunOptions) {
  const period = digestPeriod(frequency, now, timeZone);
  const recipients = await mailRecipients(store).find({ deliverable: true, frequency });
  if (recipients.length === 0) return { period, written: 0 };
  const runs = store.collection<DigestRuns>(MAIL_DIGEST_RUNS);
  const previous = await runs.findOne({ _id: frequency });
  // Items announced up to this position are in mail_items; later ones belong to the next digest. A period's digests
  // cover what its first run saw: a second run (a retry, a restart) must not move the next period's start past
  // items it did not send.
  const upTo = previous?.started.period === period ? previous.started.upTo : await reached();
  const unfinished = await writtenByUnfinishedRun(
    store,
    previous,
    recipients.map((recipient) => recipient._id),
  );
  const cursorOf = (recipient: MailRecipient) =>
    Math.max(recipient.digestFrom, previous?.finished?.upTo ?? 0, unfinished.has(recipient._id) ? previous!.started.upTo : 0);
  const cursors = new Map(recipients.map((recipient) => [recipient._id, cursorOf(recipient)]));
  const oldest = Math.min(...cursors.values());
  const items = await mailItems(store).find({ announcedAt: { $gt: oldest, $lte: upTo }, visible: true }, { sort: { announcedAt: 1 } });

  // The address's subscriptions of a more frequent kind (at once; daily, for a weekly digest): an item one of them
  // covers and has mailed since before the item was announced reaches the address that way, not in this digest.
  // Events are never mailed at once, only in digests.
  const faster = byAddress(
    await mailRecipients(store).find({
      deliverable: true,
      frequency: { $in: frequency === 'weekly' ? ['immediate', 'daily'] : ['immediate'] },
    }),
    linkSecret,
  );
  const mailedAtOnce = (address: string, item: MailItem) =>
    item.announcedAt !== null &&
    (faster.get(address) ?? []).some(
      (one) =>
        (one.frequency !== 'immediate' || item.kind !== 'event') &&
        coversContent(one.subscriptionType, item.kind === 'blog' ? 'blog_posts' : 'newsfeed') &&
        one.digestFrom < item.announcedAt!,
    );

  // Replies in watched topics kept for digests of this frequency: each goes to its watcher's own subscription.
  const waitingReplies = await mailDigestReplies(store).find(
    { frequency, position: { $gt: oldest, $lte: upTo } },
    { sort: { position: 1 } },
  );
  const repliesFor = (recipient: MailRecipient, taken: Set<string>) =>
    recipient.memberId === null
      ? []
      : waitingReplies
          .filter(
            (one) =>
              one.memberId === recipient.memberId && one.position > cursors.get(recipient._id)! && !taken.has(`reply:${one.replyId}`),
          )
          .map((one) => one.replyId);

  const entries: OutboxEntry[] = [];
  for (const [address, group] of byAddress(recipients, linkSecret)) {
    // The address's own items (a guest subscription of the author's address too), and what it gets already: at once, or
    // in a digest written before a crash.
    const own = items.filter((item) => group.some((recipient) => isOwnItem(recipient, item)));
    const atOnce = items.filter((item) => mailedAtOnce(address, item));
    const taken = new Set([...own, ...atOnce].map((item) => item._id));
    for (const recipient of group)
      for (const id of digestItemIds(unfinished.get(recipient._id) ?? { blog: [], posts: [], events: [] })) taken.add(id);
    for (const recipient of group) {
      const chosen = {
        ...without(digestItems(recipient, cursors.get(recipient._id)!, items, now), taken),
        replies: repliesFor(recipient, taken),
      };
      for (const id of digestItemIds(chosen)) taken.add(id);
      if (!isEmptyDigest(chosen))
        entries.push(newOutboxEntry(recipient._id, { kind: 'digest', frequency, period, items: chosen, upTo }, now));
    }
  }
  const mark = { period, upTo };
  await runs.replaceOne({ _id: frequency }, { _id: frequency, started: mark, finished: previous?.finished ?? null }, { upsert: true });
  const inserted = await insertNewEntries(mailOutbox(store), entries);
  await runs.updateOne({ _id: frequency }, { $set: { finished: mark } });
  // Every subscription of this frequency is covered up to here now: the replies that waited for it are in the entries.
  await mailDigestReplies(store).deleteMany({ frequency, position: { $lte: upTo } });
  if (inserted.length > 0) await enqueue(inserted);
  return { period, written: inserted.length };
}
