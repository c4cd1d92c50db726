/**
 * Realtime change notices (docs/architecture.md#change-notices): the message names with their
 * payload schemas, and the rooms, in one place for the projections that send them, the gateway
 * that delivers them and the browsers that receive them. Notices say what changed, never carry
 * whole data sets: the browser refetches what it shows.
 */
import * as v from 'valibot';
import { CommunityStatsSchema } from './feed/schemas';
import { COMMENT_TARGET_TYPES } from './comments/constants';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const ChangeKindSchema = v.picklist(['created', 'updated', 'removed']);
const ChangeSchema = v.object({ id: v.string(), kind: ChangeKindSchema });

/** Every message the server sends, by name, with the schema of its payload: the one source of both. */
export const SOCKET_PAYLOADS = {
  'posts:changed': ChangeSchema,
  'events:changed': ChangeSchema,
  'blog:changed': ChangeSchema,
  // A comment on a feed post or blog post: the thread is refetched by those who may see the target.
  'comments:changed': v.object({
    targetType: v.picklist(COMMENT_TARGET_TYPES),
    targetId: v.string(),
    id: v.string(),
    kind: ChangeKindSchema,
  }),
  'rsvp:changed': v.object({ eventId: v.string(), attending: count, maybe: count, notAttending: count, waitlistCount: count }),
  // Each moderation queue reports its own count; a notice may name one queue or both.
  'pending:changed': v.object({ events: v.optional(count), posts: v.optional(count), reports: v.optional(count) }),
  // Staff: the open entries of the reports queue.
  'reports:changed': v.object({ open: count }),
  // The owner's room only: their notifications changed; how many are unread.
  'notifications:changed': v.object({ unread: count }),
  // The owner's room only: their bookmarks changed (another tab, another device).
  'bookmarks:changed': v.object({}),
  // Some figures (online now) are not known to the projection that sees a change: a notice may
  // carry the figures it knows, or none, and the receiver refetches the rest.
  'stats:changed': v.partial(CommunityStatsSchema),
  'monitoring:changed': v.object({}),
  // Staff: the development mailbox caught mail. A burst of mail gives one notice, so it names none.
  'mailbox:changed': v.object({}),
  // The owner's room only: one of their subscriptions changed (settings, another tab, a link in a mail).
  'subscriptions:changed': v.object({ id: v.string() }),
  // Discussions (members' room): a category (or its topic count), a topic (list fields, opening post, pin, lock,
  // move), or a reply in a topic changed. A member's own place in a topic (read, watch) goes to their room as
  // `topics:changed`, so their other tabs refresh the unread counts.
  'categories:changed': ChangeSchema,
  'topics:changed': ChangeSchema,
  'replies:changed': v.object({ topicId: v.string(), id: v.string(), kind: ChangeKindSchema }),
} as const;

export type SocketMessage = keyof typeof SOCKET_PAYLOADS;
export type SocketPayload<M extends SocketMessage> = v.InferOutput<(typeof SOCKET_PAYLOADS)[M]>;

/** socket.io's typed events, server to browser: one listener per message, given its payload. */
export type ServerToClientEvents = { [M in SocketMessage]: (payload: SocketPayload<M>) => void };
/** Browsers only listen: they send nothing of their own over the socket. */
export type ClientToServerEvents = Record<never, never>;

type MemberRoom = `member:${string}`;
export type Room = 'public' | 'members' | 'staff' | MemberRoom;

/**
 * Anonymous sockets (widgets) join `public`; signed-in members also `members` and their own room;
 * admin and staff also `staff`.
 */
export const ROOMS = {
  public: 'public',
  members: 'members',
  staff: 'staff',
  member: (id: string): MemberRoom => `member:${id}`,
} as const;

/** One message to some rooms, its payload checked against the message's own. */
export type ChangeNotice = { [M in SocketMessage]: { message: M; rooms: readonly Room[]; payload: SocketPayload<M> } }[SocketMessage];
