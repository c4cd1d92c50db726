/**
 * The subscription mail reactor, applied by the mail runner after `mail_recipients` and `mail_items`: for the first
 * publication of a blog post or the first approval of a feed post it writes one outbox entry per deliverable `immediate`
 * subscription covering that content, but for the author's own; for a guest's subscription request, the confirmation
 * mail. It hands the new entries to the queue as each chunk is written, without waiting: the outbox is the truth, and
 * a Redis outage must not stop the runner (the sweeper enqueues whatever is still queued once Redis is back).
 */
import type { RecordedEvent } from '../../platform/event-store/port';
import { coversContent } from '../../shared/subscriptions/subscription-stream';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { insertNewEntries, mailOutbox, newOutboxEntry, setupOutbox, type OutboxCause } from './outbox';
import { mailRecipients } from './recipients';
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
  if (typed?.stream === 'blog' && typed.event.type === 'BlogPostPublished') return typed.event.data.firstPublication ? { to: 'immediate', content: 'blog', itemId: typed.id } : null;
  if (typed?.stream === 'post' && (typed.event.type === 'PostApproved' || (typed.event.type === 'PostSubmitted' && typed.event.data.approved))) {
    return { to: 'immediate', content: 'post', itemId: typed.id };
  }
  if (typed?.stream === 'subscription' && typed.event.type === 'SubscriptionRequested' && typed.event.data.confirmationRequired) return { to: 'guest', subscriptionId: typed.id };
  return null;
}

export interface ReactorOptions {
  /** Hands new outbox entries to the queue; may reject (Redis down): the sweeper enqueues them later. */
  enqueue(outboxIds: string[]): Promise<void>;
  onEnqueueError(error: unknown): void;
  now(): Date;
}

export function createMailReactor({ enqueue, onEnqueueError, now }: ReactorOptions): Projection {
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
        const cause: OutboxCause = { kind: 'item', content: reaction.content, itemId: reaction.itemId };
        const recipients = await mailRecipients(store).find({ deliverable: true, frequency: 'immediate' });
        entries = recipients
          .filter((recipient) => coversContent(recipient.subscriptionType, content) && !isOwnItem(recipient, item))
          .map((recipient) => newOutboxEntry(recipient._id, cause, at));
      }
      await insertNewEntries(mailOutbox(store), entries, (inserted) => enqueue(inserted).catch(onEnqueueError));
    },
  };
}
