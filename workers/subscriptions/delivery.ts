/**
 * Sends one outbox entry: the mail worker's job for a subscription mail.
 *
 * Load the entry; unless it is still queued, there is nothing to do (a retry or a re-enqueue never sends twice).
 * Claim it for a lease, so that two workers (or two jobs of one worker, after Redis lost its queue and the sweeper
 * enqueued it again) never send it at the same time. Render, send, then mark it sent. A crash between the relay's
 * acceptance and that mark is the one window left: the entry is sent again after the lease, with the same
 * Message-ID, so the resend is recognisably the same message.
 */
import { createHash } from 'node:crypto';
import type { DocumentStore } from '../../platform/document-store/port';
import type { Transport } from '../../platform/mail/transport';
import type { CommandHandler } from '../../platform/command-handler';
import { subscriptionToken } from '../../platform/mail/link-tokens';
import { streamName } from '../../shared/streams';
import { subscriptionDecider } from '../../shared/subscriptions/subscription-stream';
import { formatEventDateLine } from '../../shared/events/dates';
import { mailOutbox, type OutboxEntry } from './outbox';
import { mailRecipients, type MailRecipient } from './recipients';
import { mailItemId, mailItems, type MailItem } from './items';
import { renderMail, type MailContent, type MailLinks, type RenderedMail } from './templates';
import { TOKEN_LENGTH } from '../../shared/subscriptions/constants';
import { attendeeMessage } from '../attendees/delivery';
import { mailCalendar } from '../attendees/attendee-mail';
import { inboxDecider } from '../../shared/notifications/inbox-stream';

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
  timeZone: string;
}

/** The result of one attempt; `claimed` means another sender holds the entry until `until` (epoch ms). */
export type DeliveryResult = { outcome: 'sent' | 'bounced' | 'dropped' | 'done' } | { outcome: 'claimed' | 'later'; until: number };

/** Stands in for a subscription's token while rendering: as long as a token (so text wraps the same) and never one. */
const TOKEN_SLOT = '~'.repeat(TOKEN_LENGTH);
const RENDER_CACHE_SIZE = 200;

function withToken(mail: RenderedMail, token: string): RenderedMail {
  return { subject: mail.subject, html: mail.html.replaceAll(TOKEN_SLOT, token), text: mail.text.replaceAll(TOKEN_SLOT, token) };
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

export function createDelivery(options: DeliveryOptions) {
  const { store, transport, handle, publicUrl } = options;
  const now = () => new Date();
  const outbox = mailOutbox(store);
  const blogUrl = (item: MailItem) => `${publicUrl}/blog/${item.itemId}`;
  // The post's place in the feed, as the feed's own share link names it.
  const feedUrl = (item: MailItem) => `${publicUrl}/#post-${item.itemId}`;

  async function items(ids: string[]): Promise<Map<string, MailItem>> {
    const found = ids.length === 0 ? [] : await mailItems(store).find({ _id: { $in: ids }, visible: true });
    return new Map(found.map((item) => [item._id, item]));
  }

  /** What the mail says; null when everything it was about has been withdrawn meanwhile. */
  async function contentOf(entry: OutboxEntry, recipient: MailRecipient, token: string): Promise<MailContent | null> {
    const { cause } = entry;
    switch (cause.kind) {
      case 'attendee':
        return null;
      case 'confirmation':
        return { kind: 'confirmation', subscriptionType: recipient.subscriptionType, frequency: recipient.frequency, confirmUrl: `${publicUrl}/subscribe/confirm/${token}` };
      case 'item': {
        const item = (await items([mailItemId(cause.content, cause.itemId)])).values().next().value;
        if (!item) return null;
        return cause.content === 'blog'
          ? { kind: 'blog', post: { title: item.title, excerpt: item.text, url: blogUrl(item) } }
          : { kind: 'post', post: { text: item.text, url: feedUrl(item) } };
      }
      case 'digest': {
        const { blog, posts, events } = cause.items;
        const found = await items([...blog.map((id) => mailItemId('blog', id)), ...posts.map((id) => mailItemId('post', id)), ...events.map((id) => mailItemId('event', id))]);
        const pick = (kind: MailItem['kind'], ids: string[]) => ids.map((id) => found.get(mailItemId(kind, id))).filter((item): item is MailItem => item !== undefined);
        const content: MailContent = {
          kind: 'digest',
          frequency: cause.frequency,
          blog: pick('blog', blog).map((item) => ({ title: item.title, excerpt: item.text, url: blogUrl(item) })),
          posts: pick('post', posts).map((item) => ({ text: item.text, url: feedUrl(item) })),
          events: pick('event', events).map((item) => ({
            title: item.title,
            when: formatEventDateLine({ startDate: item.startDate!, endDate: item.endDate!, allDay: item.allDay }, { timeZone: options.timeZone }),
            url: `${publicUrl}/calendar`,
          })),
        };
        return content.blog.length + content.posts.length + content.events.length === 0 ? null : content;
      }
    }
  }

  /** Whether this mail may still go to the recipient: a confirmation only while pending, anything else while deliverable. */
  const stillWanted = (entry: OutboxEntry, recipient: MailRecipient | null): recipient is MailRecipient =>
    recipient !== null && (entry.cause.kind === 'confirmation' ? recipient.status === 'pending' : recipient.deliverable);

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

  async function finish(id: string, status: OutboxEntry['status'], extra: Partial<OutboxEntry> = {}) {
    await outbox.updateOne({ _id: id }, { $set: { status, ...extra }, $unset: { claimedUntil: '' } });
  }

  /**
   * Hands a claimed entry's mail to the relay and records the outcome: sent; bounced for good (5xx: `onBounce` is told
   * why); or, for a failure that may pass, released for the job's retry (the error is thrown on).
   */
  async function send(outboxId: string, message: Omit<Parameters<Transport['sendMail']>[0], 'from'> & { messageId: string }, onBounce?: (reason: string) => Promise<unknown>): Promise<DeliveryResult> {
    try {
      await transport.sendMail({ from: options.from, ...message });
    } catch (error) {
      if (!permanentFailure(error)) {
        // Not sent (relay down, a 4xx): let the job's own retry, or any worker, try again without waiting out the lease.
        await outbox.updateOne({ _id: outboxId, status: 'queued' }, { $unset: { claimedUntil: '' } });
        throw error;
      }
      const reason = String((error as { response?: string }).response ?? (error as Error).message).slice(0, 500);
      await finish(outboxId, 'bounced', { failure: reason });
      await onBounce?.(reason);
      return { outcome: 'bounced' };
    }
    await finish(outboxId, 'sent', { sentAt: now().toISOString(), messageId: message.messageId });
    return { outcome: 'sent' };
  }

  /** A reminder that went out is told in the site too: an event in the member's inbox the notifications follow. */
  async function notifyReminder({ eventId, memberId, key }: { eventId: string; memberId: string; key: string }) {
    const event = await mailCalendar(store).findOne({ _id: eventId });
    if (!event) return;
    await handle(inboxDecider, streamName('inbox', memberId), { type: 'RecordEventReminder', data: { memberId, eventId, title: event.title, startDate: key }, metadata: { now: now(), actor: null } });
  }

  async function deliver(outboxId: string): Promise<DeliveryResult> {
    const entry = await outbox.findOne({ _id: outboxId });
    if (!entry || entry.status !== 'queued') return { outcome: 'done' };
    const at = now().getTime();
    // A scheduled mail (a reminder) waits for its time in BullMQ's delayed set; a lost one is enqueued again by the sweeper.
    if (entry.sendAt && Date.parse(entry.sendAt) > at) return { outcome: 'later', until: Date.parse(entry.sendAt) };
    if (entry.claimedUntil !== undefined && entry.claimedUntil > at) return { outcome: 'claimed', until: entry.claimedUntil };
    const claim = await outbox.updateOne(
      { _id: outboxId, status: 'queued', ...(entry.claimedUntil === undefined ? { claimedUntil: { $exists: false } } : { claimedUntil: entry.claimedUntil }) },
      { $set: { claimedUntil: at + CLAIM_LEASE_MS } },
    );
    if (claim.matchedCount === 0) {
      // Someone else claimed or finished it between our read and our claim: look again later.
      const current = await outbox.findOne({ _id: outboxId });
      return current?.status === 'queued' ? { outcome: 'claimed', until: current.claimedUntil ?? at + CLAIM_LEASE_MS } : { outcome: 'done' };
    }
    const renewal = holdClaim(outboxId, at + CLAIM_LEASE_MS);
    try {
      return await deliverClaimed(outboxId, entry);
    } finally {
      clearInterval(renewal);
    }
  }

  /** Keeps renewing the claim while this sender works on the entry; stops matching once the entry is finished or released. */
  function holdClaim(outboxId: string, claimedUntil: number): NodeJS.Timeout {
    let held = claimedUntil;
    return setInterval(() => {
      const next = now().getTime() + CLAIM_LEASE_MS;
      outbox
        .updateOne({ _id: outboxId, status: 'queued', claimedUntil: held }, { $set: { claimedUntil: next } })
        .then((renewed) => {
          if (renewed.matchedCount === 1) held = next;
        })
        .catch(() => undefined);
    }, CLAIM_RENEW_MS);
  }

  async function deliverClaimed(outboxId: string, entry: OutboxEntry): Promise<DeliveryResult> {
    const messageId = messageIdFor(outboxId, publicUrl);
    if (entry.cause.kind === 'attendee') {
      const message = await attendeeMessage(store, entry.cause, { publicUrl, timeZone: options.timeZone });
      if (!message) {
        await finish(outboxId, 'dropped');
        return { outcome: 'dropped' };
      }
      const result = await send(outboxId, { ...message, messageId });
      if (result.outcome === 'sent' && entry.cause.mail === 'reminder') await notifyReminder(entry.cause);
      return result;
    }

    const recipient = await mailRecipients(store).findOne({ _id: entry.subscriptionId });
    if (!stillWanted(entry, recipient)) {
      await finish(outboxId, 'dropped');
      return { outcome: 'dropped' };
    }
    const content = await contentOf(entry, recipient, TOKEN_SLOT);
    if (!content) {
      await finish(outboxId, 'dropped');
      return { outcome: 'dropped' };
    }
    const token = subscriptionToken(options.linkSecret, entry.subscriptionId);
    const links = linksFor(publicUrl, token, recipient);
    const mail = withToken(await rendered(content, linksFor(publicUrl, TOKEN_SLOT, recipient)), token);
    const result = await send(
      outboxId,
      {
        to: recipient.email,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        messageId,
        // RFC 8058: mail clients offer one-click unsubscribe, POSTing to the address without a session.
        headers: { 'List-Unsubscribe': `<${links.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      },
      (reason) => handle(subscriptionDecider, streamName('subscription', entry.subscriptionId), { type: 'RecordBounce', data: { reason }, metadata: { now: now(), actor: null } }),
    );
    if (result.outcome === 'sent' && entry.cause.kind === 'confirmation') {
      // Part of the consent record: when the opt-in link went out. Item and digest mail is logged in the outbox only.
      await handle(subscriptionDecider, streamName('subscription', entry.subscriptionId), {
        type: 'RecordDelivery',
        data: { kind: 'confirmation', itemKey: entry.subscriptionId },
        metadata: { now: now(), actor: null },
      });
    }
    return result;
  }

  return deliver;
}

export type Deliver = ReturnType<typeof createDelivery>;
