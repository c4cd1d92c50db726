/**
 * Realtime change notices (API.md "Realtime"): the message names, the rooms and the
 * payload schemas, in one place for the projections that send them and the browsers
 * that receive them. Notices say what changed, never carry whole data sets: the
 * browser refetches what it shows.
 */
import * as v from 'valibot';

export const SOCKET_ROOMS = { members: 'members', staff: 'staff', public: 'public' } as const;
export type SocketRoom = (typeof SOCKET_ROOMS)[keyof typeof SOCKET_ROOMS];

export const SOCKET_MESSAGES = {
  postsChanged: 'posts:changed',
  eventsChanged: 'events:changed',
  blogChanged: 'blog:changed',
  rsvpChanged: 'rsvp:changed',
  pendingChanged: 'pending:changed',
  statsChanged: 'stats:changed',
  monitoringChanged: 'monitoring:changed',
  mailboxChanged: 'mailbox:changed',
  subscriptionsChanged: 'subscriptions:changed',
} as const;
export type SocketMessage = (typeof SOCKET_MESSAGES)[keyof typeof SOCKET_MESSAGES];

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const ChangeKindSchema = v.picklist(['created', 'updated', 'removed']);
const ChangeSchema = v.object({ id: v.string(), kind: ChangeKindSchema });

/** GET /api/stats, and what `stats:changed` may carry. */
export const CommunityStatsSchema = v.object({
  totalPosts: count,
  activeMembers: count,
  onlineNow: count,
  postsThisWeek: count,
  trendingTags: v.array(v.object({ tag: v.string(), count })),
});
export type CommunityStats = v.InferOutput<typeof CommunityStatsSchema>;

export const SOCKET_PAYLOADS = {
  'posts:changed': ChangeSchema,
  'events:changed': ChangeSchema,
  'blog:changed': ChangeSchema,
  'rsvp:changed': v.object({ eventId: v.string(), attending: count, maybe: count, notAttending: count }),
  // Each moderation queue reports its own count; a notice may name one queue or both.
  'pending:changed': v.object({ events: v.optional(count), posts: v.optional(count) }),
  // Some figures (online now) are not known to the projection that sees a change: a notice may
  // carry the figures it knows, or none, and the receiver refetches the rest.
  'stats:changed': v.partial(CommunityStatsSchema),
  'monitoring:changed': v.object({}),
  // Staff: the development mailbox caught mail. A burst of mail gives one notice, so it names none.
  'mailbox:changed': v.object({}),
  // The owner's room only: one of their subscriptions changed (settings, another tab, a link in a mail).
  'subscriptions:changed': v.object({ id: v.string() }),
} as const satisfies Record<SocketMessage, v.GenericSchema>;

export type SocketPayload<M extends SocketMessage> = v.InferOutput<(typeof SOCKET_PAYLOADS)[M]>;
