/**
 * The mail outbox: one document per mail that must go out, keyed by recipient and cause
 * (`item:<address key>:<blog|post>:<itemId>`, `digest:<subscriptionId>:<period>`,
 * `confirmation:<subscriptionId>`, for the people of an event `attendee:<kind>:<eventId>:<memberId>:<key>`, and for a
 * topic's watchers `reply:<memberId>:<replyId>`). It is the durable record of what to send and what was sent;
 * Redis is not durable here, so BullMQ jobs only deliver and are re-enqueued from `queued` entries.
 *
 * The collection belongs to no projection, so rebuilding read models (or the mail runner's own
 * models) never drops it, and a replay finds its entries already there and sends nothing again.
 * Sent entries are pruned after MAIL_OUTBOX_RETENTION_DAYS (see pruneSentEntries).
 */
import { DuplicateKeyError, type Collection, type DocumentStore } from '../../platform/document-store/port';

export const MAIL_OUTBOX = 'mail_outbox';

/** Item ids a digest carries, split as the mail shows them. */
export interface DigestItems {
  blog: string[];
  posts: string[];
  events: string[];
  /** Replies in topics the member watches (workers/discussions/watcher-mail.ts); absent in digests written before them. */
  replies?: string[];
}

/** Mail to the people of an event (workers/attendees/attendee-mail.ts). */
export type AttendeeMailKind = 'promoted' | 'changed' | 'cancelled' | 'reminder' | 'message';

export type OutboxCause =
  | { kind: 'confirmation' }
  /** `key` tells two mails of one kind apart: the promotion's position in the log, the change's SEQUENCE, the reminded start, the message's id. */
  /** `occurrence`: one date of a recurring event (its start as the series has it), the mail's subject; none: the event (or its first date). */
  | { kind: 'attendee'; mail: AttendeeMailKind; eventId: string; memberId: string; key: string; occurrence?: string }
  /** A new reply in a topic the member watches (workers/discussions/watcher-mail.ts). */
  | { kind: 'reply'; topicId: string; replyId: string; memberId: string }
  /**
   * `address` is the key of the recipient's address (mailAddressKey): the entry's id names the address, not the
   * subscription, so two subscriptions of one address covering the item make one mail (the second insert is a no-op).
   */
  | { kind: 'item'; content: 'blog' | 'post'; itemId: string; address: string }
  | {
      kind: 'digest';
      frequency: 'daily' | 'weekly';
      period: string;
      items: DigestItems;
      /** Mail-runner position the digest covers up to: the next digest of this subscription starts after it. */
      upTo: number;
    };

export type OutboxEntry = {
  /** See outboxId. The mail's Message-ID is derived from it (messageIdFor in delivery.ts), the same at every resend. */
  _id: string;
  /** The subscription the mail is for; for mail to the people of an event or a topic's watchers, the member. */
  subscriptionId: string;
  cause: OutboxCause;
  /** queued: to send; sent: accepted by the relay; bounced: refused for good (5xx); dropped: its item was withdrawn first. */
  status: 'queued' | 'sent' | 'bounced' | 'dropped';
  /** When it was written; for a scheduled mail, when it falls due (so monitoring counts its wait from then). */
  createdAt: string;
  /** A scheduled mail (a reminder) goes out at this time, not before. */
  sendAt?: string;
  /** A worker that is sending this mail holds it until then (epoch ms), so two workers never send it at once. */
  claimedUntil?: number;
  /** Which run holds the claim: a random id per delivery run, so a run finds the entries it took in one read. */
  claim?: string;
  sentAt?: string;
  failure?: string;
};

export function outboxId(subscriptionId: string, cause: OutboxCause | { kind: 'digest'; period: string }): string {
  switch (cause.kind) {
    case 'confirmation':
      return `confirmation:${subscriptionId}`;
    case 'item':
      return `item:${cause.address}:${cause.content}:${cause.itemId}`;
    case 'digest':
      return `digest:${subscriptionId}:${cause.period}`;
    case 'attendee':
      return `attendee:${cause.mail}:${cause.eventId}:${cause.memberId}:${cause.occurrence ? `${cause.occurrence}:` : ''}${cause.key}`;
    case 'reply':
      return `reply:${cause.memberId}:${cause.replyId}`;
  }
}

export function newOutboxEntry(subscriptionId: string, cause: OutboxCause, now: Date): OutboxEntry {
  return { _id: outboxId(subscriptionId, cause), subscriptionId, cause, status: 'queued', createdAt: now.toISOString() };
}

export const mailOutbox = (store: DocumentStore) => store.collection<OutboxEntry>(MAIL_OUTBOX);

export async function setupOutbox(store: DocumentStore) {
  const outbox = mailOutbox(store);
  await outbox.createIndex({ status: 1 });
  // For outboxFigures: the oldest queued entry, and the mail sent in the last hour, without reading the outbox.
  await outbox.createIndex({ status: 1, createdAt: 1 });
  await outbox.createIndex({ status: 1, sentAt: 1 });
}

/** What monitoring shows of the outbox (GET /api/admin/monitoring `mail`, /metrics). */
export interface OutboxFigures {
  /** Entries still to send, including any whose job failed for good and waits for the sweeper. */
  queued: number;
  /** Age of the oldest of them, 0 when none: a stuck mail shows here, since failed outbox jobs leave BullMQ. */
  oldestQueuedSeconds: number;
  sentLastHour: number;
  /** Refused for good by the relay, ever. */
  bounced: number;
}

const HOUR_MS = 3600_000;

/** Four queries, each a range of the (status, createdAt) or (status, sentAt) index. */
export async function outboxFigures(outbox: Collection<OutboxEntry>, now: Date): Promise<OutboxFigures> {
  const [queued, oldest, sentLastHour, bounced] = await Promise.all([
    // Mail scheduled for later is not waiting yet.
    outbox.countDocuments({ status: 'queued', createdAt: { $lte: now.toISOString() } }),
    outbox.findOne({ status: 'queued', createdAt: { $lte: now.toISOString() } }, { sort: { createdAt: 1 } }),
    outbox.countDocuments({ status: 'sent', sentAt: { $gte: new Date(now.getTime() - HOUR_MS).toISOString() } }),
    outbox.countDocuments({ status: 'bounced' }),
  ]);
  const oldestQueuedSeconds = oldest ? Math.max(0, Math.floor((now.getTime() - Date.parse(oldest.createdAt)) / 1000)) : 0;
  return { queued, oldestQueuedSeconds, sentLastHour, bounced };
}

const CHUNK = 1000;

/**
 * Inserts the entries whose ids are not in the outbox yet and returns those ids: a replay, or a second digest
 * run in the same period, writes (and therefore enqueues) nothing. `written` is told the ids of each chunk once it
 * is in, so a large fan-out can start sending while the rest is written.
 */
export async function insertNewEntries(
  outbox: Collection<OutboxEntry>,
  entries: OutboxEntry[],
  written: (ids: string[]) => void = () => undefined,
): Promise<string[]> {
  const inserted: string[] = [];
  for (let i = 0; i < entries.length; i += CHUNK) {
    const before = inserted.length;
    const chunk = entries.slice(i, i + CHUNK);
    const existing = new Set((await outbox.find({ _id: { $in: chunk.map((entry) => entry._id) } })).map((entry) => entry._id));
    const fresh = chunk.filter((entry) => !existing.has(entry._id));
    try {
      await outbox.insertMany(fresh);
      inserted.push(...fresh.map((entry) => entry._id));
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      // Another mail runner wrote some of them meanwhile: insert one by one, keeping only ours.
      for (const entry of fresh) {
        try {
          await outbox.insertOne(entry);
          inserted.push(entry._id);
        } catch (single) {
          if (!(single instanceof DuplicateKeyError)) throw single;
        }
      }
    }
    if (inserted.length > before) written(inserted.slice(before));
  }
  return inserted;
}

/** Entries deleted per statement when pruning: each delete is short, whatever the backlog. */
const PRUNE_BATCH = 1000;

export interface PruneOptions {
  /** Entries sent before this are deleted. */
  sentBefore: Date;
  /** Digest periods whose entries stay whatever their age (see digestPeriodsInUse). */
  keepDigestPeriods: string[];
  /** Asked between batches: a stopping worker ends the prune there, and the next one goes on. */
  stopped?: () => boolean;
}

/**
 * Deletes the entries sent before `sentBefore`, oldest first, in batches; returns how many. Whatever was not sent
 * (queued, bounced, dropped) stays. Deleting an entry frees its id, which alone would let its cause be written again;
 * nothing writes an old cause again: the mail runner leaves events older than a day alone (HISTORY_AGE_MS) and mails an
 * item only for the event that first announced it, and digests are written for the current period only.
 */
export async function pruneSentEntries(
  outbox: Collection<OutboxEntry>,
  { sentBefore, keepDigestPeriods, stopped = () => false }: PruneOptions,
): Promise<number> {
  const filter = { status: 'sent', sentAt: { $lt: sentBefore.toISOString() }, 'cause.period': { $nin: keepDigestPeriods } };
  let deleted = 0;
  for (;;) {
    const ids = (await outbox.find(filter, { sort: { sentAt: 1 }, limit: PRUNE_BATCH })).map((entry) => entry._id);
    if (ids.length > 0) deleted += await outbox.deleteMany({ _id: { $in: ids } });
    if (ids.length < PRUNE_BATCH || stopped()) return deleted;
  }
}

/** Ids of every entry still to send, for the sweeper that re-enqueues them. */
export async function queuedIds(outbox: Collection<OutboxEntry>): Promise<string[]> {
  return (await outbox.find({ status: 'queued' }, { sort: { createdAt: 1 } })).map((entry) => entry._id);
}
