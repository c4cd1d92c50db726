/**
 * The subscription settings page's rules (docs/domain/subscriptions.md#settings-page), kept pure so they can be
 * tested without a browser: what the toggles show for the member's current
 * subscriptions, and which calls a Save makes to reach what the member chose.
 */
import { SUBSCRIPTION_TYPES, type Frequency, type SubscriptionType } from '../../../shared/subscriptions/constants';
import type { Subscription } from '../../../shared/subscriptions/schemas';

export type { Subscription };

/** What one toggle and its frequency choice show. */
export interface Choice {
  enabled: boolean;
  frequency: Frequency;
}
export type Choices = Record<SubscriptionType, Choice>;
/** The member's unsaved edits, per type; a type not edited shows what the server holds. */
export type Edits = Partial<Record<SubscriptionType, Choice>>;

export type SaveStep =
  | { kind: 'create'; subscriptionType: SubscriptionType; frequency: Frequency }
  | { kind: 'update'; subscription: Subscription; changes: { isActive?: boolean; frequency?: Frequency } }
  | { kind: 'remove'; subscription: Subscription };

const DEFAULT_FREQUENCY: Frequency = 'immediate';

/** An ended subscription is history, not something a toggle can change: subscribing again makes a new one. */
export function currentSubscriptions(subscriptions: readonly Subscription[]): Map<SubscriptionType, Subscription> {
  const current = new Map<SubscriptionType, Subscription>();
  for (const subscription of subscriptions)
    if (subscription.status !== 'unsubscribed') current.set(subscription.subscriptionType, subscription);
  return current;
}

/** A toggle is on while its subscription is active; a paused one shows off until the member turns it back on. */
export function savedChoices(subscriptions: readonly Subscription[]): Choices {
  const current = currentSubscriptions(subscriptions);
  const choice = (type: SubscriptionType): Choice => {
    const subscription = current.get(type);
    return { enabled: subscription?.isActive ?? false, frequency: subscription?.frequency ?? DEFAULT_FREQUENCY };
  };
  return Object.fromEntries(SUBSCRIPTION_TYPES.map((type) => [type, choice(type)])) as Choices;
}

export function shownChoices(subscriptions: readonly Subscription[], edits: Edits): Choices {
  const saved = savedChoices(subscriptions);
  return Object.fromEntries(SUBSCRIPTION_TYPES.map((type) => [type, edits[type] ?? saved[type]])) as Choices;
}

/**
 * The member's edits once the server's state moved from `before` to `after` (a Save, another tab, an unsubscribe
 * link in a mail): each field the member changed keeps their choice, each field they left alone follows the
 * server, and an edit that now matches the server is dropped, since there is nothing left to save. So a
 * subscription ended elsewhere turns its toggle off unless the member had turned it on themselves.
 */
export function rebaseEdits(edits: Edits, before: Choices, after: Choices): Edits {
  const rebased: Edits = {};
  for (const type of SUBSCRIPTION_TYPES) {
    const edit = edits[type];
    if (!edit) continue;
    const choice: Choice = {
      enabled: edit.enabled === before[type].enabled ? after[type].enabled : edit.enabled,
      frequency: edit.frequency === before[type].frequency ? after[type].frequency : edit.frequency,
    };
    if (choice.enabled !== after[type].enabled || choice.frequency !== after[type].frequency) rebased[type] = choice;
  }
  return rebased;
}

/**
 * The calls a Save makes: create for a newly enabled type, update an existing
 * subscription whose active flag or frequency changed, delete one turned off.
 * A type whose toggle is off and was off asks for nothing, whatever its
 * frequency, so an untouched paused subscription is left alone.
 */
export function saveSteps(subscriptions: readonly Subscription[], edits: Edits): SaveStep[] {
  const current = currentSubscriptions(subscriptions);
  const steps: SaveStep[] = [];
  for (const type of SUBSCRIPTION_TYPES) {
    const wanted = edits[type];
    if (!wanted) continue;
    const existing = current.get(type);
    if (!existing) {
      if (wanted.enabled) steps.push({ kind: 'create', subscriptionType: type, frequency: wanted.frequency });
      continue;
    }
    if (!wanted.enabled) {
      if (existing.isActive) steps.push({ kind: 'remove', subscription: existing });
      continue;
    }
    const changes: { isActive?: boolean; frequency?: Frequency } = {};
    if (!existing.isActive) changes.isActive = true;
    if (existing.frequency !== wanted.frequency) changes.frequency = wanted.frequency;
    if (Object.keys(changes).length > 0) steps.push({ kind: 'update', subscription: existing, changes });
  }
  return steps;
}

/** The subscriptions mail goes to now, for the "Active Subscriptions" summary. */
export function activeSubscriptions(subscriptions: readonly Subscription[]): Subscription[] {
  return [...currentSubscriptions(subscriptions).values()].filter(
    (subscription) => subscription.isActive && subscription.status !== 'pending',
  );
}
