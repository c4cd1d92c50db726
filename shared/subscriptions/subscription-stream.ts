/**
 * An e-mail subscription (stream `subscription-<id>`): one address, one type, one frequency.
 *
 * - A guest's subscription waits for the confirmation link (double opt-in); a signed-in
 *   member's is confirmed at once, since the route gives the account's own address.
 * - One token per subscription confirms it and unsubscribes from it. Routes find the
 *   subscription by the token's SHA-256 and pass that hash on; decide compares it with
 *   the stored one, so a wrong lookup can never confirm or end another subscription.
 * - Only the member who owns a subscription changes it. Staff and admins may see
 *   others' subscriptions in read models but not change them: consent to mail belongs
 *   to the recipient. A guest's subscription has no owner account and changes only
 *   through its link.
 * - Unsubscribed is final: nothing resumes it, and subscribing again starts a new stream.
 *   Unsubscribing again is a no-op, so the API can answer success (alreadyUnsubscribed).
 * - Deliveries and bounces are recorded by the mail workers (no actor). A delivery is
 *   recorded once per kind and item, so a retried job records nothing twice.
 * - A guest's subscription of a member's address ends with that member's erasure
 *   (`SubscriptionErased`, docs/domain/members.md#erasure): the erasure route asks it with the
 *   account's own address, which the decider compares with the subscription's. The stream's
 *   key is destroyed with it, so nothing of the address stays in the log or the read models.
 */
import { type Actor, type CommandMetadata, type Decider, assertNever, fail } from '../domain';
import {
  MAX_BOUNCES,
  type DeliveryKind,
  type Frequency,
  type SubscriptionStatus,
  type SubscriptionType,
  type UnsubscribeVia,
} from './constants';

export type SubscriptionEvent =
  | {
      type: 'SubscriptionRequested';
      data: {
        id: string;
        email: string;
        memberId: string | null;
        subscriptionType: SubscriptionType;
        frequency: Frequency;
        tokenHash: string;
        confirmationRequired: boolean;
        at: string;
      };
    }
  | { type: 'SubscriptionConfirmed'; data: { at: string } }
  | { type: 'SubscriptionFrequencyChanged'; data: { frequency: Frequency; previous: Frequency; at: string } }
  | { type: 'SubscriptionPaused'; data: { at: string } }
  | { type: 'SubscriptionResumed'; data: { at: string } }
  | { type: 'Unsubscribed'; data: { via: UnsubscribeVia; at: string } }
  | { type: 'EmailDelivered'; data: { kind: DeliveryKind; itemKey: string; at: string } }
  | { type: 'EmailBounced'; data: { reason: string; at: string } }
  | { type: 'SubscriptionErased'; data: { at: string } };

export type SubscriptionCommand =
  | {
      type: 'RequestSubscription';
      /** `email` is the account's address for a member, the form's for a guest; `isActive: false` creates it paused. */
      data: { id: string; email: string; subscriptionType: SubscriptionType; frequency: Frequency; tokenHash: string; isActive?: boolean };
      metadata: CommandMetadata;
    }
  | { type: 'ConfirmSubscription'; data: { tokenHash: string }; metadata: CommandMetadata }
  | { type: 'UpdateSubscription'; data: { isActive?: boolean; frequency?: Frequency }; metadata: CommandMetadata }
  | { type: 'Unsubscribe'; data: { via: 'settings' } | { via: 'link' | 'one_click'; tokenHash: string }; metadata: CommandMetadata }
  | { type: 'RecordDelivery'; data: { kind: DeliveryKind; itemKey: string }; metadata: CommandMetadata }
  | { type: 'RecordBounce'; data: { reason: string }; metadata: CommandMetadata }
  /** `email`: the erased member's own address (trimmed, lower-case), which must be the subscription's. */
  | { type: 'EraseSubscription'; data: { email: string }; metadata: CommandMetadata };

export interface SubscriptionState {
  status: 'none' | 'pending' | 'confirmed' | 'unsubscribed';
  email: string;
  memberId: string | null;
  subscriptionType: SubscriptionType;
  frequency: Frequency;
  tokenHash: string;
  isActive: boolean;
  /** `deliveryKey`s of the mail sent so far. */
  delivered: ReadonlySet<string>;
  bounces: number;
  /** Its address's owner was erased: ended for good, the address forgotten. */
  erased: boolean;
}

export const deliveryKey = (kind: DeliveryKind, itemKey: string) => `${kind}:${itemKey}`;

export const INVALID_LINK = 'This link is invalid or has expired';
export const SUBSCRIPTION_ENDED = 'This subscription has ended. Subscribe again to receive e-mails.';

/** Where a subscription not ended stands, as the pages show it: pending until confirmed, then active or paused by its switch. */
export function standingOf(confirmed: boolean, isActive: boolean): Exclude<SubscriptionStatus, 'unsubscribed'> {
  if (!confirmed) return 'pending';
  return isActive ? 'active' : 'paused';
}

/** Where the subscription stands, as the settings and unsubscribe pages show it. */
export function subscriptionStatus(state: SubscriptionState): 'none' | SubscriptionStatus {
  if (state.status === 'confirmed') return standingOf(true, state.isActive);
  return state.status;
}

/** Whether mail other than the confirmation link may go to this subscription now. */
export function isDeliverable(state: SubscriptionState): boolean {
  return subscriptionStatus(state) === 'active' && state.bounces < MAX_BOUNCES;
}

/** Whether a subscription of `type` receives mail about `content`. */
export function coversContent(type: SubscriptionType, content: Exclude<SubscriptionType, 'all'>): boolean {
  return type === 'all' || type === content;
}

function requireOwner(state: SubscriptionState, actor: Actor | null): void {
  if (!actor) throw fail.unauthenticated();
  if (state.memberId === null || actor.id !== state.memberId) throw fail.forbidden('You can only change your own subscriptions');
}

function requireLink(state: SubscriptionState, tokenHash: string): void {
  if (tokenHash !== state.tokenHash) throw fail.notFound(INVALID_LINK);
}

function requireSystem(actor: Actor | null): void {
  if (actor) throw fail.forbidden('Only the mail service records deliveries');
}

export const subscriptionDecider: Decider<SubscriptionState, SubscriptionCommand, SubscriptionEvent> = {
  initialState: () => ({
    status: 'none',
    email: '',
    memberId: null,
    subscriptionType: 'all',
    frequency: 'immediate',
    tokenHash: '',
    isActive: true,
    delivered: new Set(),
    bounces: 0,
    erased: false,
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'SubscriptionRequested': {
        const { email, memberId, subscriptionType, frequency, tokenHash, confirmationRequired } = event.data;
        return {
          ...state,
          status: confirmationRequired ? 'pending' : 'confirmed',
          email,
          memberId,
          subscriptionType,
          frequency,
          tokenHash,
        };
      }
      case 'SubscriptionConfirmed':
        return { ...state, status: 'confirmed' };
      case 'SubscriptionFrequencyChanged':
        return { ...state, frequency: event.data.frequency };
      case 'SubscriptionPaused':
        return { ...state, isActive: false };
      case 'SubscriptionResumed':
        return { ...state, isActive: true };
      case 'Unsubscribed':
        return { ...state, status: 'unsubscribed', isActive: false };
      case 'EmailDelivered':
        return { ...state, delivered: new Set(state.delivered).add(deliveryKey(event.data.kind, event.data.itemKey)) };
      case 'EmailBounced':
        return { ...state, bounces: state.bounces + 1 };
      case 'SubscriptionErased':
        return { ...state, status: 'unsubscribed', isActive: false, email: '', erased: true };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const { actor } = command.metadata;
    const at = command.metadata.now.toISOString();
    if (command.type === 'RequestSubscription') {
      if (state.status !== 'none') throw fail.conflict('This subscription already exists');
      const { id, email, subscriptionType, frequency, tokenHash, isActive = true } = command.data;
      const requested: SubscriptionEvent = {
        type: 'SubscriptionRequested',
        data: { id, email, memberId: actor?.id ?? null, subscriptionType, frequency, tokenHash, confirmationRequired: actor === null, at },
      };
      return isActive ? [requested] : [requested, { type: 'SubscriptionPaused', data: { at } }];
    }
    if (state.status === 'none') throw fail.notFound('Subscription not found');

    switch (command.type) {
      case 'ConfirmSubscription':
        requireLink(state, command.data.tokenHash);
        if (state.status === 'unsubscribed') throw fail.rule(SUBSCRIPTION_ENDED);
        return state.status === 'pending' ? [{ type: 'SubscriptionConfirmed', data: { at } }] : [];
      case 'UpdateSubscription': {
        requireOwner(state, actor);
        if (state.status === 'unsubscribed') throw fail.rule(SUBSCRIPTION_ENDED);
        const { frequency, isActive } = command.data;
        const events: SubscriptionEvent[] = [];
        if (frequency !== undefined && frequency !== state.frequency) {
          events.push({ type: 'SubscriptionFrequencyChanged', data: { frequency, previous: state.frequency, at } });
        }
        if (isActive === false && state.isActive) events.push({ type: 'SubscriptionPaused', data: { at } });
        if (isActive === true && !state.isActive) events.push({ type: 'SubscriptionResumed', data: { at } });
        return events;
      }
      case 'Unsubscribe': {
        const { data } = command;
        if (data.via === 'settings') requireOwner(state, actor);
        else requireLink(state, data.tokenHash);
        return state.status === 'unsubscribed' ? [] : [{ type: 'Unsubscribed', data: { via: data.via, at } }];
      }
      case 'RecordDelivery': {
        requireSystem(actor);
        const { kind, itemKey } = command.data;
        // Recorded even after an unsubscribe: the mail went out before it, and the record says so.
        return state.delivered.has(deliveryKey(kind, itemKey)) ? [] : [{ type: 'EmailDelivered', data: { kind, itemKey, at } }];
      }
      case 'RecordBounce':
        requireSystem(actor);
        return [{ type: 'EmailBounced', data: { reason: command.data.reason, at } }];
      case 'EraseSubscription':
        if (!actor) throw fail.unauthenticated();
        if (state.erased) return [];
        // Only a guest's subscription of the caller's own address: a member's own ones go with MemberErased.
        if (state.memberId !== null || state.email !== command.data.email)
          throw fail.forbidden('Only a guest subscription of your own address ends with your account');
        return [{ type: 'SubscriptionErased', data: { at } }];
      default:
        return assertNever(command);
    }
  },
};
