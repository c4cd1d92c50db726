/** Bodies of the subscription calls (docs/domain/subscriptions.md) and the unsubscribe lookup's shape. */
import * as v from 'valibot';
import { EmailSchema } from '../members/schemas';
import { text } from '../text-schema';
import { FREQUENCIES, SUBSCRIPTION_TYPES, TOKEN_LENGTH, type Frequency, type KnownSubscriptionType, type SubscriptionType } from './constants';

export const SubscriptionTypeSchema = v.picklist(SUBSCRIPTION_TYPES, 'Choose blog_posts, newsfeed or all');
export const FrequencySchema = v.picklist(FREQUENCIES, 'Choose immediate, daily or weekly');

/** POST /api/subscriptions, by a signed-in member for their own address. */
export const NewSubscriptionSchema = v.object({
  subscriptionType: SubscriptionTypeSchema,
  frequency: FrequencySchema,
  isActive: v.optional(v.boolean('isActive must be true or false'), true),
});
export type NewSubscription = v.InferOutput<typeof NewSubscriptionSchema>;

/** PUT /api/subscriptions/{id}: either field may be left out. */
export const SubscriptionUpdateSchema = v.object({
  isActive: v.optional(v.boolean('isActive must be true or false')),
  frequency: v.optional(FrequencySchema),
});
export type SubscriptionUpdate = v.InferOutput<typeof SubscriptionUpdateSchema>;

/** POST /api/subscribe, by a guest: the address gets a confirmation link first (double opt-in). */
export const GuestSubscribeSchema = v.object({
  email: EmailSchema,
  subscriptionType: SubscriptionTypeSchema,
  frequency: FrequencySchema,
});
export type GuestSubscribe = v.InferOutput<typeof GuestSubscribeSchema>;

/** A token from a link: anything else is an unknown token, answered without touching the store. */
export const TokenSchema = v.pipe(text(), v.regex(new RegExp(`^[A-Za-z0-9_-]{${TOKEN_LENGTH}}$`), 'Invalid token'));

/** GET /api/unsubscribe/{token} (docs/domain/subscriptions.md#unsubscribe-page). */
export type UnsubscribeLookup =
  | { error: 'TOKEN_NOT_FOUND' }
  | {
      alreadyUnsubscribed: boolean;
      subscription: {
        email: string;
        /** guest: subscribed without an account; user: a member's subscription. */
        type: 'guest' | 'user';
        subscriptionTypes: KnownSubscriptionType[];
        subscriptionType: SubscriptionType;
        frequency: Frequency;
      };
    };
