/** Bodies and answers of the subscription calls (docs/domain/subscriptions.md). */
import * as v from 'valibot';
import { EmailSchema } from '../members/schemas';
import { text } from '../text-schema';
import { CONSENT_EVENTS, FREQUENCIES, SUBSCRIPTION_STATUSES, SUBSCRIPTION_TYPES, TOKEN_LENGTH, TOKEN_NOT_FOUND } from './constants';

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

/** One of a member's subscriptions, as the settings page reads it. */
export const SubscriptionSchema = v.object({
  id: v.string(),
  email: v.string(),
  subscriptionType: v.picklist(SUBSCRIPTION_TYPES),
  frequency: v.picklist(FREQUENCIES),
  isActive: v.boolean(),
  status: v.picklist(SUBSCRIPTION_STATUSES),
  createdAt: v.string(),
});
export type Subscription = v.InferOutput<typeof SubscriptionSchema>;

/** One subscription in the staff consent record: everything but the token hash. */
export const ConsentRecordSchema = v.object({
  ...SubscriptionSchema.entries,
  memberId: v.nullable(v.string()),
  bounces: v.pipe(v.number(), v.integer()),
  confirmedAt: v.nullable(v.string()),
  unsubscribedAt: v.nullable(v.string()),
  history: v.array(v.object({ event: v.picklist(CONSENT_EVENTS), at: v.string(), detail: v.optional(v.string()) })),
});
export type ConsentRecord = v.InferOutput<typeof ConsentRecordSchema>;

/** GET /api/unsubscribe/{token} (docs/domain/subscriptions.md#unsubscribe-page). */
export const UnsubscribeLookupSchema = v.object({
  alreadyUnsubscribed: v.boolean(),
  subscription: v.object({
    email: v.string(),
    /** guest: subscribed without an account; user: a member's subscription. */
    type: v.picklist(['guest', 'user']),
    subscriptionTypes: v.array(v.picklist([...SUBSCRIPTION_TYPES, 'newsletter'])),
    subscriptionType: v.picklist(SUBSCRIPTION_TYPES),
    frequency: v.picklist(FREQUENCIES),
  }),
});
export type UnsubscribeLookup = v.InferOutput<typeof UnsubscribeLookupSchema>;

/** A link's token that is malformed, unknown or expired. */
export const TokenNotFoundSchema = v.object({ error: v.literal(TOKEN_NOT_FOUND), message: v.optional(v.string()) });

export const UnsubscribedSchema = v.object({ success: v.literal(true), alreadyUnsubscribed: v.boolean() });
export const ConfirmedSchema = v.object({ success: v.literal(true) });
