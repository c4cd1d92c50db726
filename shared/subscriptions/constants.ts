/** Business constants of e-mail subscriptions (docs/domain/subscriptions.md#types-and-frequencies). */

/** What a subscription can be created for; `all` covers both blog posts and the newsfeed. */
export const SUBSCRIPTION_TYPES = ['blog_posts', 'newsfeed', 'all'] as const;
export type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];

/** Every type an unsubscribe link can name: `newsletter` is known to the unsubscribe page but cannot be subscribed to. */
export type KnownSubscriptionType = SubscriptionType | 'newsletter';
export const SUBSCRIPTION_TYPE_LABELS: Record<KnownSubscriptionType, string> = {
  blog_posts: 'Blog Posts',
  newsfeed: 'Newsfeed',
  all: 'All Updates',
  newsletter: 'Newsletter',
};

export const FREQUENCIES = ['immediate', 'daily', 'weekly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const FREQUENCY_LABELS: Record<Frequency, string> = {
  immediate: 'Immediate',
  daily: 'Daily digest',
  weekly: 'Weekly digest',
};

/** How an unsubscribe arrived: the settings page, the link in an e-mail, or a mail client's RFC 8058 one-click POST. */
export const UNSUBSCRIBE_VIAS = ['settings', 'link', 'one_click'] as const;
export type UnsubscribeVia = (typeof UNSUBSCRIBE_VIAS)[number];

/** What a delivered e-mail was: the double opt-in link, one new item (immediate), or a daily or weekly digest. */
export const DELIVERY_KINDS = ['confirmation', 'item', 'digest'] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** After this many bounces an address gets no more mail, so that the relay keeps its reputation. */
export const MAX_BOUNCES = 3;

/** Link tokens are 32 bytes in base64url (43 characters); only their SHA-256 is stored. */
export const TOKEN_LENGTH = 43;

/** The lookup's answer for an unknown unsubscribe token (docs/domain/subscriptions.md#unsubscribe-page). */
export const TOKEN_NOT_FOUND = 'TOKEN_NOT_FOUND';

/** pending until confirmed; then active or paused by the member's switch; unsubscribed for good. */
export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'paused', 'unsubscribed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The steps of a subscription's consent record (docs/domain/subscriptions.md#consent-record). */
export const CONSENT_EVENTS = [
  'requested',
  'confirmation_sent',
  'confirmed',
  'frequency_changed',
  'paused',
  'resumed',
  'unsubscribed',
  'bounced',
] as const;
export type ConsentEvent = (typeof CONSENT_EVENTS)[number];
