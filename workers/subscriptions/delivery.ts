/**
 * Sends outbox entries: the mail worker's job for subscription mail and mail to the people of an event. A job carries
 * a batch of entries (MAIL_BATCH, workers/mail.ts), so a fan-out costs a few reads per batch rather than per mail.
 *
 * Claim the entries that are still queued and due, for a lease marked with this run's own claim, so that two workers
 * (or two jobs of one worker, after Redis lost its queue and the sweeper enqueued them again) never send one at the
 * same time; whatever is not queued any more is done (a retry or a re-enqueue never sends twice). Read the
 * recipients and items, render, send side by side, and mark each entry sent once the relay has accepted it (marks
 * that arrive together share one statement). A crash between the relay's acceptance and that mark is the one window
 * left: the entry is sent again after the lease, with the same Message-ID, so the resend is recognisably the same
 * message.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Collection, DocumentStore } from '../../platform/document-store/port';
import type { Transport } from '../../platform/mail/transport';
import type { CommandHandler } from '../../platform/command-handler';
import { subscriptionToken } from '../../platform/mail/link-tokens';
import { streamName } from '../../shared/streams';
import { subscriptionDecider } from '../../shared/subscriptions/subscription-stream';
import { formatEventTime } from '../../shared/events/event-times';
import { mailOutbox, type OutboxEntry } from './outbox';
import { mailRecipients, type MailRecipient } from './recipients';
import { mailItemId, mailItems, type MailItem } from './items';
import { renderMail, type MailContent, type MailLinks, type RenderedMail, type ReplyItem } from './templates';
import { TOKEN_LENGTH } from '../../shared/subscriptions/constants';
import { attendeeMessage } from '../attendees/delivery';
import { mailCalendar } from '../attendees/attendee-mail';
import { inboxDecider } from '../../shared/notifications/inbox-stream';
import { digestReplies, replyMessage } from '../discussions/reply-mail';

/**
 * How long a claim holds unless renewed. The sender renews it every CLAIM_RENEW_MS while it works on the entry, so a
 * slow relay never outlives the claim, and a sender that died (kill -9) lets its entries go within seconds.
 */
export const CLAIM_LEASE_MS = 3_000;
const CLAIM_RENEW_MS = 1_000;

export interface DeliveryOptions {
  store: DocumentStore;
  transport: Transport;
  handle: CommandHandler;
  from: string;
  publicUrl: string;
  linkSecret: string;
  /** The site's zone now: event times in mail are shown and named in it. */
  timeZone: () => Promise<string>;
  /** The domain of the Reply-To addresses of discussion mail (REPLY_DOMAIN). */
  replyDomain: string;
}

/** The status an entry ends in: sent; refused for good (5xx); dropped (withdrawn, unsubscribed, nothing left to say). */
type Outcome = 'sent' | 'bounced' | 'dropped';

/** What one delivery run did with its entries. */
export interface DeliveryReport {
  sent: number;
  bounced: number;
  dropped: number;
  /** Already finished by another run, or no longer in the outbox. */
  done: number;
  /** Entries to look at again at `until` (epoch ms): held by another sender, or not due yet (a reminder). */
  later?: { outboxIds: string[]; until: number };
  /** Entries whose send failed in a way that may pass (the relay down, a 4xx), released for a retry; `error` is the first. */
  failed?: { outboxIds: string[]; error: unknown };
}

/** Stands in for a subscription's token while rendering: as long as a token (so text wraps the same) and never one. */
const TOKEN_SLOT = '~'.repeat(TOKEN_LENGTH);
const RENDER_CACHE_SIZE = 200;
/** Mails of one run in the transport's hands at once: as many as its pool has connections (platform/mail/transport.ts). */
const SENDS_AT_ONCE = 5;
const MARK_GAP_MS = 10;
/**
 * Mails a sender has handed to the relay and not yet marked finished, at most: what a crash can send twice. Twice the
 * transport's connections, so the pool stays busy while marks are written.
 */
export const UNMARKED_AT_MOST = 10;

function withToken(mail: RenderedMail, token: string): RenderedMail {
  return {
    subject: mail.subject,
    html: mail.html.replaceAll(TOKEN_SLOT, () => token),
    text: mail.text.replaceAll(TOKEN_SLOT, () => token),
  };
}

/** A Message-ID derived from the outbox id: the same mail always carries the same one. */
export function messageIdFor(outboxId: string, publicUrl: string): string {
  return `<${createHash('sha256').update(outboxId).digest('hex').slice(0, 32)}@${new URL(publicUrl).hostname}>`;
}

/** A permanent refusal by the relay (5xx): retrying cannot help, and it counts as a bounce. */
function permanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

function linksFor(publicUrl: string, token: string, recipient: Pick<MailRecipient, 'memberId'>): MailLinks & { oneClick: string } {
  const unsubscribe = `${publicUrl}/unsubscribe/${token}`;
  return {
    site: `${publicUrl}/`,
    unsubscribe,
    // A guest has no settings page: the unsubscribe page is where their subscription is managed.
    manage: recipient.memberId ? `${publicUrl}/subscription-settings` : unsubscribe,
    oneClick: `${publicUrl}/api/unsubscribe/${token}`,
  };
}

/**
 * Marks entries finished: the first at once, then one statement for all that finished meanwhile, at most one every
 * MARK_GAP_MS (each is a transaction; one per mail cost a fan-out a third of its speed). A sent mail's sender waits
 * for its mark, so the mail waiting here counts against UNMARKED_AT_MOST.
 */
function finishedMarks(outbox: Collection<OutboxEntry>, now: () => Date) {
  type Waiting = { id: string; done: () => void; failed: (error: unknown) => void };
  const waiting: Record<'sent' | 'dropped', Waiting[]> = { sent: [], dropped: [] };
  let writing = false;
  async function write() {
    writing = true;
    for (const status of ['sent', 'dropped'] as const) {
      while (waiting[status].length > 0) {
        const batch = waiting[status].splice(0);
        const began = Date.now();
        const at = now().toISOString();
        try {
          await outbox.updateMany(
            { _id: { $in: batch.map((entry) => entry.id) } },
            { $set: { status, ...(status === 'sent' ? { sentAt: at } : {}) }, $unset: { claimedUntil: '', claim: '' } },
          );
          for (const entry of batch) entry.done();
        } catch (error) {
          for (const entry of batch) entry.failed(error);
        }
        const rest = MARK_GAP_MS - (Date.now() - began);
        if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      }
    }
    writing = false;
    if (waiting.sent.length + waiting.dropped.length > 0) void write();
  }
  return (status: 'sent' | 'dropped', id: string) =>
    new Promise<void>((done, failed) => {
      waiting[status].push({ id, done, failed });
      if (!writing) void write();
    });
}

/** At most `size` holders at once; the others wait in turn. */
function permits(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    take: () => (free > 0 ? (free--, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve))),
    give: () => (waiting.length > 0 ? waiting.shift()!() : free++),
  };
}

export function createDelivery(options: DeliveryOptions) {
  const { store, transport, handle, publicUrl } = options;
  const now = () => new Date();
  const outbox = mailOutbox(store);
  // Shared by every run of this sender: a fan-out's runs mark their mail together, a few statements a second.
  const mark = finishedMarks(outbox, now);
  // Mails given to the transport and not yet marked finished, across all runs of this sender: the crash window.
  const unmarked = permits(UNMARKED_AT_MOST);
  const blogUrl = (item: MailItem) => `${publicUrl}/blog/${item.slug ?? item.itemId}`;
  // The post's own page (/posts/{id}), as the feed's share link names it.
  const feedUrl = (item: MailItem) => `${publicUrl}/posts/${item.itemId}`;

  /** The visible items the entries' mails are about, in one read. */
  async function itemsOf(entries: OutboxEntry[]): Promise<Map<string, MailItem>> {
    const ids = new Set<string>();
    for (const { cause } of entries) {
      if (cause.kind === 'item') ids.add(mailItemId(cause.content, cause.itemId));
      if (cause.kind === 'digest') {
        for (const id of cause.items.blog) ids.add(mailItemId('blog', id));
        for (const id of cause.items.posts) ids.add(mailItemId('post', id));
        for (const id of cause.items.events) ids.add(mailItemId('event', id));
      }
    }
    const found = ids.size === 0 ? [] : await mailItems(store).find({ _id: { $in: [...ids] }, visible: true });
    return new Map(found.map((item) => [item._id, item]));
  }

  /** What the mail says; null when everything it was about has been withdrawn meanwhile. */
  function contentOf(
    entry: OutboxEntry,
    recipient: MailRecipient,
    token: string,
    items: Map<string, MailItem>,
    timeZone: string,
    replies: ReplyItem[],
  ): MailContent | null {
    const { cause } = entry;
    switch (cause.kind) {
      case 'attendee':
      case 'reply':
        return null;
      case 'confirmation':
        return {
          kind: 'confirmation',
          subscriptionType: recipient.subscriptionType,
          frequency: recipient.frequency,
          confirmUrl: `${publicUrl}/subscribe/confirm/${token}`,
        };
      case 'item': {
        const item = items.get(mailItemId(cause.content, cause.itemId));
        if (!item) return null;
        return cause.content === 'blog'
          ? { kind: 'blog', post: { title: item.title, excerpt: item.text, url: blogUrl(item) } }
          : { kind: 'post', post: { text: item.text, url: feedUrl(item) } };
      }
      case 'digest': {
        const { blog, posts, events } = cause.items;
        const pick = (kind: MailItem['kind'], ids: string[]) =>
          ids.map((id) => items.get(mailItemId(kind, id))).filter((item): item is MailItem => item !== undefined);
        const content: MailContent = {
          kind: 'digest',
          frequency: cause.frequency,
          blog: pick('blog', blog).map((item) => ({ title: item.title, excerpt: item.text, url: blogUrl(item) })),
          posts: pick('post', posts).map((item) => ({ text: item.text, url: feedUrl(item) })),
          events: pick('event', events).map((item) => ({
            title: item.title,
            when: formatEventTime({ startDate: item.startDate!, endDate: item.endDate!, allDay: item.allDay }, { timeZone }),
            url: `${publicUrl}/calendar`,
          })),
          replies,
        };
        return content.blog.length + content.posts.length + content.events.length + replies.length === 0 ? null : content;
      }
    }
  }

  /** Whether this mail may still go to the recipient: a confirmation only while pending, anything else while deliverable. */
  const stillWanted = (entry: OutboxEntry, recipient: MailRecipient | undefined): recipient is MailRecipient =>
    recipient !== undefined && (entry.cause.kind === 'confirmation' ? recipient.status === 'pending' : recipient.deliverable);

  /**
   * Rendering costs about 3 ms of CPU per mail, the largest part of a fan-out; every recipient of one item gets the
   * same mail but for the token in its links. So mails are rendered with TOKEN_SLOT in place of the token, kept for
   * the next recipients of the same content, and the token is put in afterwards.
   */
  const cache = new Map<string, Promise<RenderedMail>>();
  function rendered(content: MailContent, links: MailLinks): Promise<RenderedMail> {
    const key = JSON.stringify([content, links]);
    let mail = cache.get(key);
    if (!mail) {
      mail = renderMail(content, links);
      cache.set(key, mail);
      mail.catch(() => cache.delete(key));
      if (cache.size > RENDER_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    return mail;
  }

  /** A reminder that went out is told in the site too: an event in the member's inbox the notifications follow. */
  async function notifyReminder({ eventId, memberId, key }: { eventId: string; memberId: string; key: string }) {
    const event = await mailCalendar(store).findOne({ _id: eventId });
    if (!event) return;
    await handle(inboxDecider, streamName('inbox', memberId), {
      type: 'RecordEventReminder',
      data: { memberId, eventId, title: event.title, startDate: key },
      metadata: { now: now(), actor: null },
    });
  }

  /**
   * Takes the entries that are queued, due and held by nobody (or by a sender whose claim lapsed) for this run, marked
   * with its own claim, and tells what became of each: ours, finished already, or to look at again later.
   */
  async function claim(outboxIds: string[], at: number) {
    const mine = randomUUID();
    await outbox.updateMany(
      {
        _id: { $in: outboxIds },
        status: 'queued',
        $and: [
          { $or: [{ claimedUntil: { $exists: false } }, { claimedUntil: { $lte: at } }] },
          // A scheduled mail (a reminder) waits for its time in BullMQ's delayed set; a lost one is enqueued again by the sweeper.
          { $or: [{ sendAt: { $exists: false } }, { sendAt: { $lte: new Date(at).toISOString() } }] },
        ],
      },
      { $set: { claimedUntil: at + CLAIM_LEASE_MS, claim: mine } },
    );
    const found = await outbox.find({ _id: { $in: outboxIds } });
    const claimed: OutboxEntry[] = [];
    const later: { id: string; until: number }[] = [];
    for (const entry of found) {
      if (entry.status !== 'queued') continue;
      if (entry.claim === mine) claimed.push(entry);
      else if (entry.sendAt && Date.parse(entry.sendAt) > at) later.push({ id: entry._id, until: Date.parse(entry.sendAt) });
      // Held by another sender; or released by one between our claim and our read, to be taken at the next look.
      else later.push({ id: entry._id, until: entry.claimedUntil !== undefined && entry.claimedUntil > at ? entry.claimedUntil : at });
    }
    return { mine, claimed, later, done: outboxIds.length - claimed.length - later.length };
  }

  /** Keeps renewing this run's claim while it works on its entries; stops matching an entry once it is finished or released. */
  function holdClaim(ids: string[], mine: string): NodeJS.Timeout {
    return setInterval(() => {
      outbox
        .updateMany({ _id: { $in: ids }, status: 'queued', claim: mine }, { $set: { claimedUntil: now().getTime() + CLAIM_LEASE_MS } })
        .catch(() => undefined);
    }, CLAIM_RENEW_MS);
  }

  /**
   * Sends a batch of outbox entries (one mail job): claims the entries free to send, reads their recipients and items
   * in one read each, sends their mails side by side through the pooled transport, and marks each one finished as
   * soon as the relay has answered. Entries held by another sender or not yet due come back in `later`, and so do
   * those not begun when `stopping` turns true (the worker is closing); those whose relay failed in a way that may
   * pass, released, in `failed`.
   */
  async function deliver(outboxIds: string[], stopping: () => boolean = () => false): Promise<DeliveryReport> {
    const at = now().getTime();
    const { mine, claimed, later, done } = await claim([...new Set(outboxIds)], at);
    const report: DeliveryReport = { sent: 0, bounced: 0, dropped: 0, done };
    if (later.length > 0)
      report.later = { outboxIds: later.map((entry) => entry.id), until: Math.min(...later.map((entry) => entry.until)) };
    if (claimed.length === 0) return report;

    const renewal = holdClaim(
      claimed.map((entry) => entry._id),
      mine,
    );
    const failed: string[] = [];
    try {
      const subscriptionIds = claimed
        .filter((entry) => entry.cause.kind === 'item' || entry.cause.kind === 'digest' || entry.cause.kind === 'confirmation')
        .map((entry) => entry.subscriptionId);
      const [recipients, items] = await Promise.all([
        subscriptionIds.length === 0 ? [] : mailRecipients(store).find({ _id: { $in: subscriptionIds } }),
        itemsOf(claimed),
      ]);
      const recipientById = new Map(recipients.map((recipient) => [recipient._id, recipient]));
      // Read once a run: the zone an admin set is in the next run's mail.
      const timeZone = await options.timeZone();
      const queue = [...claimed];
      const lane = async () => {
        for (let entry = queue.shift(); entry && !stopping(); entry = queue.shift()) {
          try {
            report[await deliverClaimed(entry, mine, recipientById.get(entry.subscriptionId), items, timeZone)] += 1;
          } catch (error) {
            failed.push(entry._id);
            report.failed ??= { outboxIds: failed, error };
          }
        }
      };
      await Promise.all(Array.from({ length: SENDS_AT_ONCE }, lane));
      if (queue.length > 0) {
        // Stopping: what was not begun goes back for the next worker at once, instead of holding up the stop.
        const left = queue.map((entry) => entry._id);
        await outbox.updateMany({ _id: { $in: left }, status: 'queued', claim: mine }, { $unset: { claimedUntil: '', claim: '' } });
        report.later = { outboxIds: [...left, ...(report.later?.outboxIds ?? [])], until: at };
      }
    } finally {
      clearInterval(renewal);
    }
    return report;
  }

  /**
   * Hands a claimed entry's mail to the relay and records the outcome: sent; bounced for good (5xx: `onBounce` is told
   * why); or, for a failure that may pass, released for a retry (the error is thrown on).
   */
  async function send(
    entry: OutboxEntry,
    mine: string,
    message: Omit<Parameters<Transport['sendMail']>[0], 'from' | 'messageId'>,
    onBounce?: (reason: string) => Promise<unknown>,
  ): Promise<Outcome> {
    await unmarked.take();
    try {
      return await sendHeld(entry, mine, message, onBounce);
    } finally {
      unmarked.give();
    }
  }

  async function sendHeld(
    entry: OutboxEntry,
    mine: string,
    message: Omit<Parameters<Transport['sendMail']>[0], 'from' | 'messageId'>,
    onBounce?: (reason: string) => Promise<unknown>,
  ): Promise<Outcome> {
    try {
      await transport.sendMail({ from: options.from, ...message, messageId: messageIdFor(entry._id, publicUrl) });
    } catch (error) {
      if (!permanentFailure(error)) {
        // Not sent (relay down, a 4xx): let the job's own retry, or any worker, try again without waiting out the lease.
        await outbox.updateOne({ _id: entry._id, status: 'queued', claim: mine }, { $unset: { claimedUntil: '', claim: '' } });
        throw error;
      }
      const reason = String((error as { response?: string }).response ?? (error as Error).message).slice(0, 500);
      await outbox.updateOne({ _id: entry._id }, { $set: { status: 'bounced', failure: reason }, $unset: { claimedUntil: '', claim: '' } });
      await onBounce?.(reason);
      return 'bounced';
    }
    await mark('sent', entry._id);
    return 'sent';
  }

  async function drop(entry: OutboxEntry): Promise<Outcome> {
    await mark('dropped', entry._id);
    return 'dropped';
  }

  async function deliverClaimed(
    entry: OutboxEntry,
    mine: string,
    recipient: MailRecipient | undefined,
    items: Map<string, MailItem>,
    timeZone: string,
  ): Promise<Outcome> {
    if (entry.cause.kind === 'reply') {
      const message = await replyMessage(store, entry.cause, { publicUrl, replyDomain: options.replyDomain, now: now() });
      return message ? send(entry, mine, message) : drop(entry);
    }
    if (entry.cause.kind === 'attendee') {
      const message = await attendeeMessage(store, entry.cause, { publicUrl, timeZone });
      if (!message) return drop(entry);
      const outcome = await send(entry, mine, message);
      if (outcome === 'sent' && entry.cause.mail === 'reminder') await notifyReminder(entry.cause);
      return outcome;
    }

    if (!stillWanted(entry, recipient)) return drop(entry);
    const replies =
      entry.cause.kind === 'digest' && entry.cause.items.replies?.length && recipient.memberId
        ? await digestReplies(store, recipient.memberId, entry.cause.items.replies, {
            publicUrl,
            replyDomain: options.replyDomain,
            now: now(),
          })
        : [];
    const content = contentOf(entry, recipient, TOKEN_SLOT, items, timeZone, replies);
    if (!content) return drop(entry);
    const token = subscriptionToken(options.linkSecret, entry.subscriptionId);
    const links = linksFor(publicUrl, token, recipient);
    const mail = withToken(await rendered(content, linksFor(publicUrl, TOKEN_SLOT, recipient)), token);
    const outcome = await send(
      entry,
      mine,
      {
        to: recipient.email,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        // RFC 8058: mail clients offer one-click unsubscribe, POSTing to the address without a session.
        headers: { 'List-Unsubscribe': `<${links.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      },
      (reason) =>
        handle(subscriptionDecider, streamName('subscription', entry.subscriptionId), {
          type: 'RecordBounce',
          data: { reason },
          metadata: { now: now(), actor: null },
        }),
    );
    if (outcome === 'sent' && entry.cause.kind === 'confirmation') {
      // Part of the consent record: when the opt-in link went out. Item and digest mail is logged in the outbox only.
      await handle(subscriptionDecider, streamName('subscription', entry.subscriptionId), {
        type: 'RecordDelivery',
        data: { kind: 'confirmation', itemKey: entry.subscriptionId },
        metadata: { now: now(), actor: null },
      });
    }
    return outcome;
  }

  return deliver;
}

export type Deliver = ReturnType<typeof createDelivery>;
