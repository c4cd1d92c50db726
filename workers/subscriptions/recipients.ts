/**
 * `mail_recipients`: the mail runner's own view of every subscription, one document per subscription,
 * kept by the same runner that decides what to send. So when the runner handles a publication, this
 * model is exactly as of that event: a subscription made just before is included, one ended just before
 * is not, whatever the API's read models are doing. The state is folded with the subscription decider's
 * own `evolve`, so "deliverable" means here exactly what it means in the domain.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import {
  isDeliverable,
  subscriptionDecider,
  type SubscriptionEvent,
  type SubscriptionState,
} from '../../shared/subscriptions/subscription-stream';
import type { Frequency, SubscriptionType } from '../../shared/subscriptions/constants';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';

export const MAIL_RECIPIENTS = 'mail_recipients';

export type MailRecipient = Positioned & {
  _id: string;
  email: string;
  memberId: string | null;
  subscriptionType: SubscriptionType;
  frequency: Frequency;
  status: SubscriptionState['status'];
  isActive: boolean;
  bounces: number;
  deliverable: boolean;
  /**
   * Position after which this subscription's next digest collects items, unless a digest was sent since (the
   * outbox keeps that cursor): set when mail starts (subscribed or confirmed), on a resume, and when the frequency
   * changes, so a digest never repeats what was mailed at once or collected while paused.
   */
  digestFrom: number;
};

export const mailRecipients = (store: DocumentStore) => store.collection<MailRecipient>(MAIL_RECIPIENTS);

function stateOf(recipient: MailRecipient | null): SubscriptionState {
  if (!recipient) return subscriptionDecider.initialState();
  const { email, memberId, subscriptionType, frequency, status, isActive, bounces } = recipient;
  // Token hash and delivery keys play no part in who receives mail.
  return { ...subscriptionDecider.initialState(), email, memberId, subscriptionType, frequency, status, isActive, bounces };
}

/** Whether the event starts a new stretch of mail for digests (see digestFrom). */
function restartsDigest(event: SubscriptionEvent): boolean {
  switch (event.type) {
    case 'SubscriptionRequested':
      return !event.data.confirmationRequired;
    case 'SubscriptionConfirmed':
    case 'SubscriptionResumed':
    case 'SubscriptionFrequencyChanged':
      return true;
    default:
      return false;
  }
}

export const mailRecipientsProjection: Projection = {
  name: 'mail-recipients',
  version: 1,
  collections: [MAIL_RECIPIENTS],
  async setup(store) {
    const recipients = mailRecipients(store);
    await recipients.createIndex({ deliverable: 1, frequency: 1 });
  },
  async apply(recorded, { store }) {
    const typed = typedEvent(recorded);
    if (typed?.stream !== 'subscription') return;
    const { id, event } = typed;
    // A guest's subscription of an erased member's address: no more mail, and its address goes.
    if (event.type === 'SubscriptionErased') return void (await applyToDocument(mailRecipients(store), id, recorded.position, () => null));
    await applyToDocument(mailRecipients(store), id, recorded.position, (current) => {
      const state = subscriptionDecider.evolve(stateOf(current), event);
      return {
        email: state.email,
        memberId: state.memberId,
        subscriptionType: state.subscriptionType,
        frequency: state.frequency,
        status: state.status,
        isActive: state.isActive,
        bounces: state.bounces,
        deliverable: isDeliverable(state),
        digestFrom: restartsDigest(event) ? recorded.position : (current?.digestFrom ?? recorded.position),
      };
    });
  },
};
