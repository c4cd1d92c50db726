/**
 * The subscription mail reactor, applied by the mail runner after `mail_recipients` and `mail_items`: for the first
 * publication of a blog post or the first approval of a feed post it writes one outbox entry per address whose
 * deliverable `immediate` subscriptions cover that content, but for the author's own; for a guest's subscription
 * request, the confirmation mail. One item reaches one address once: a member with "Blog Posts" and "All Updates", or
 * a member's and a guest's subscription of one address, get one mail, keyed by the address (`item:<address key>:…`),
 * so a replay or a second runner finds the id taken whichever subscription it picks. It hands the new entries to the
 * queue as each chunk is written, without waiting: the outbox is the truth, and a Redis outage must not stop the
 * runner (the sweeper enqueues whatever is still queued once Redis is back).
 */
import type { RecordedEvent } from '../../platform/event-store/port';
import { coversContent } from '../../shared/subscriptions/subscription-stream';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { insertNewEntries, mailOutbox, newOutboxEntry, setupOutbox, type OutboxCause } from './outbox';
import { mailAddressKey } from '../../platform/mail/link-tokens';
import { mailRecipients, type MailRecipient } from './recipients';
import { isOwnItem, mailItemId, mailItems } from './items';

/**
 * Events older than this are history: when the mail runner starts on an existing log (first deployment of mail, a
 * lost checkpoint, a new database restored from an old dump), it must not mail subscribers about every post ever
 * published or send stale confirmation links. A live event is handled within seconds, so a day leaves ample room
 * for a runner that was down for hours.
 */
export const HISTORY_AGE_MS = 24 * 3600 * 1000;

type Reaction = { to: 'immediate'; content: 'blog' | 'post'; itemId: string } | { to: 'guest'; subscriptionId: string };

/** What an event asks of the mail service, if anything. */
export function reactionTo(recorded: RecordedEvent): Reaction | null {
  const typed = typedEvent(recorded);
  if (typed?.stream === 'blog' && typed.event.type === 'BlogPostPublished')
    return typed.event.data.firstPublication ? { to: 'immediate', content: 'blog', itemId: typed.id } : null;
  if (
    typed?.stream === 'post' &&
    (typed.event.type === 'PostApproved' || (typed.event.type === 'PostSubmitted' && typed.event.data.approved))
  ) {
    return { to: 'immediate', content: 'post', itemId: typed.id };
  }
  if (typed?.stream === 'subscription' && typed.event.type === 'SubscriptionRequested' && typed.event.data.confirmationRequired)
    return { to: 'guest', subscriptionId: typed.id };
  return null;
}

export interface ReactorOptions {
  /** Hands new outbox entries to the queue; may reject (Redis down): the sweeper enqueues them later. */
  enqueue(outboxIds: string[]): Promise<void>;
  onEnqueueError(error: unknown): void;
  now(): Date;
  /** Keys the addresses in outbox ids (mailAddressKey). */
  linkSecret: string;
}

/**
 * Of several subscriptions of one address, the one a mail goes out for (its unsubscribe link): a member's before a
 * guest's, then the lowest id, so every runner picks the same one from the same subscriptions.
 */
export function preferredFirst(a: Pick<MailRecipient, '_id' | 'memberId'>, b: Pick<MailRecipient, '_id' | 'memberId'>): number {
  if ((a.memberId === null) !== (b.memberId === null)) return a.memberId === null ? 1 : -1;
  return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
}

/** The recipients grouped by address key, each group's preferred subscription first. */
export function byAddress<T extends Pick<MailRecipient, '_id' | 'memberId' | 'email'>>(
  recipients: T[],
  linkSecret: string,
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const recipient of [...recipients].sort(preferredFirst)) {
    const key = mailAddressKey(linkSecret, recipient.email);
    const group = groups.get(key);
    if (group) group.push(recipient);
    else groups.set(key, [recipient]);
  }
  return groups;
}

export function createMailReactor({ enqueue, onEnqueueError, now, linkSecret }: ReactorOptions): Projection {
  return {
    name: 'mail-reactor',
    version: 1,
    // Owns nothing that may be dropped: the outbox must survive every rebuild.
    collections: [],
    setup: setupOutbox,
    async apply(recorded, { store }) {
      const reaction = reactionTo(recorded);
      if (!reaction) return;
      const at = now();
      if (at.getTime() - recorded.createdAt.getTime() > HISTORY_AGE_MS) return;
      let entries;
      if (reaction.to === 'guest') {
        entries = [newOutboxEntry(reaction.subscriptionId, { kind: 'confirmation' }, at)];
      } else {
        const content = reaction.content === 'blog' ? 'blog_posts' : 'newsfeed';
        // mail_items has already applied this event (it runs before the reactor), so the item and its author are there.
        const item = await mailItems(store).findOne({ _id: mailItemId(reaction.content, reaction.itemId) });
        // Only the event that first made the item public mails about it. A post approved again after a rejection was
        // announced then, and the outbox entries that would have kept it from going out twice may be pruned since.
        if (!item || item.announcedAt !== recorded.position) return;
        const recipients = await mailRecipients(store).find({ deliverable: true, frequency: 'immediate' });
        const covering = recipients.filter((recipient) => coversContent(recipient.subscriptionType, content));
        entries = [];
        for (const [address, group] of byAddress(covering, linkSecret)) {
          // The author's address gets nothing, even through a guest subscription of it.
          if (group.some((recipient) => isOwnItem(recipient, item))) continue;
          const cause: OutboxCause = { kind: 'item', content: reaction.content, itemId: reaction.itemId, address };
          entries.push(newOutboxEntry(group[0]!._id, cause, at));
        }
      }
      await insertNewEntries(mailOutbox(store), entries, (inserted) => enqueue(inserted).catch(onEnqueueError));
    },
  };
}
