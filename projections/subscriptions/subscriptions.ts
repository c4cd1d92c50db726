/**
 * `subscriptions`: one document per e-mail subscription, serving the settings page
 * (by memberId), the links in mails (by tokenHash), the mail fan-out and the staff
 * consent record (by email). `history` is that consent record: every request,
 * confirmation, change and unsubscribe with its time, kept after the subscription
 * ends, so staff can show when and how an address agreed to (or stopped) mail.
 * Of deliveries, only the confirmation mail is listed (when the opt-in link went
 * out is part of the consent); item and digest mail says nothing about consent and
 * would grow the document with every mail.
 *
 * A change to a member's subscription is announced to that member's sockets
 * (`subscriptions:changed`), so an open settings page follows changes made in
 * another tab or through the link in a mail. An erased member's subscriptions go,
 * consent record and all, and so do guests' subscriptions of their address (`SubscriptionErased`).
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { ConsentEvent, Frequency, SubscriptionStatus, SubscriptionType } from '../../shared/subscriptions/constants';
import { standingOf, type SubscriptionEvent } from '../../shared/subscriptions/subscription-stream';
import { ROOMS } from '../../shared/socket-messages';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';

export const SUBSCRIPTIONS = 'subscriptions';

export type { SubscriptionStatus };

export type ConsentEntry = {
  event: ConsentEvent;
  at: string;
  /**
   * requested: `guest` or `member` (who asked); frequency_changed: `daily to weekly`;
   * unsubscribed: how (`settings`, `link`, `one_click`); bounced: the relay's reason.
   */
  detail?: string;
};

export type SubscriptionDocument = Positioned & {
  _id: string;
  /** Stored as the routes give it: trimmed and lower-case, so the consent lookup is an exact match on the index. */
  email: string;
  /** null for a guest's subscription, which changes only through its link. */
  memberId: string | null;
  subscriptionType: SubscriptionType;
  frequency: Frequency;
  status: SubscriptionStatus;
  /** The member's pause switch; false once unsubscribed. A pending subscription keeps the switch it was asked with. */
  isActive: boolean;
  /** SHA-256 of the link token; the token itself is never stored. */
  tokenHash: string;
  bounces: number;
  createdAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  history: ConsentEntry[];
};

export const subscriptionsCollection = (store: DocumentStore) => store.collection<SubscriptionDocument>(SUBSCRIPTIONS);

type Fields = Omit<SubscriptionDocument, '_id' | '_position'>;

/** The document after one event; null leaves a missing document missing (an event before the request cannot happen). */
export function evolveDocument(current: Fields | null, event: SubscriptionEvent): Fields | null {
  if (event.type === 'SubscriptionRequested') {
    const { email, memberId, subscriptionType, frequency, tokenHash, confirmationRequired, at } = event.data;
    return {
      email,
      memberId,
      subscriptionType,
      frequency,
      status: standingOf(!confirmationRequired, true),
      isActive: true,
      tokenHash,
      bounces: 0,
      createdAt: at,
      confirmedAt: confirmationRequired ? null : at,
      unsubscribedAt: null,
      history: [{ event: 'requested', at, detail: memberId ? 'member' : 'guest' }],
    };
  }
  if (!current) return null;
  const record = (entry: ConsentEntry) => [...current.history, entry];
  const confirmed = current.confirmedAt !== null;
  switch (event.type) {
    case 'SubscriptionConfirmed':
      return {
        ...current,
        status: standingOf(true, current.isActive),
        confirmedAt: event.data.at,
        history: record({ event: 'confirmed', at: event.data.at }),
      };
    case 'SubscriptionFrequencyChanged': {
      const { frequency, previous, at } = event.data;
      return { ...current, frequency, history: record({ event: 'frequency_changed', at, detail: `${previous} to ${frequency}` }) };
    }
    case 'SubscriptionPaused':
      return { ...current, isActive: false, status: standingOf(confirmed, false), history: record({ event: 'paused', at: event.data.at }) };
    case 'SubscriptionResumed':
      return { ...current, isActive: true, status: standingOf(confirmed, true), history: record({ event: 'resumed', at: event.data.at }) };
    case 'Unsubscribed':
      return {
        ...current,
        isActive: false,
        status: 'unsubscribed',
        unsubscribedAt: event.data.at,
        history: record({ event: 'unsubscribed', at: event.data.at, detail: event.data.via }),
      };
    case 'EmailBounced':
      return {
        ...current,
        bounces: current.bounces + 1,
        history: record({ event: 'bounced', at: event.data.at, detail: event.data.reason }),
      };
    case 'EmailDelivered':
      return event.data.kind === 'confirmation'
        ? { ...current, history: record({ event: 'confirmation_sent', at: event.data.at }) }
        : current;
    case 'SubscriptionErased':
      // A guest's subscription of an erased member's address: it goes, consent record and all, as theirs do.
      return null;
  }
}

export const subscriptionsProjection: Projection = {
  name: 'subscriptions',
  version: 1,
  collections: [SUBSCRIPTIONS],
  async setup(store) {
    const subscriptions = subscriptionsCollection(store);
    await subscriptions.createIndex({ memberId: 1 });
    await subscriptions.createIndex({ tokenHash: 1 });
    await subscriptions.createIndex({ email: 1 });
  },
  async apply(recorded, { store, notify }) {
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member' && typed.event.type === 'MemberErased') {
      const subscriptions = subscriptionsCollection(store);
      for (const { _id } of await subscriptions.find({ memberId: typed.id }, { fields: ['_id'] }))
        await applyToDocument(subscriptions, _id, recorded.position, () => null);
      return;
    }
    if (typed?.stream !== 'subscription') return;
    const { id, event } = typed;
    // Item and digest deliveries change nothing here; skipping them saves a read per mail sent.
    if (event.type === 'EmailDelivered' && event.data.kind !== 'confirmation') return;
    let owner = null as string | null;
    await applyToDocument(subscriptionsCollection(store), id, recorded.position, (current) => {
      const next = evolveDocument(current, event);
      owner = next?.memberId ?? current?.memberId ?? null;
      return next;
    });
    // Only the owner's settings page shows it; a guest's subscription has no account to tell.
    if (owner !== null) notify({ message: 'subscriptions:changed', rooms: [ROOMS.member(owner)], payload: { id } });
  },
};
