/**
 * Stream names, one helper per stream type, so category streams stay usable (`$ce-event` in KurrentDB).
 * `email-<sha256>` claims an address for one member; `founder-community` is claimed by the first account;
 * `slug-<slug>` claims a blog post's address for one post.
 */
import type { BlogPostEvent } from './blog/blog-stream';
import type { CalendarEventEvent } from './events/event-stream';
import type { CommentEvent } from './comments/comment-stream';
import type { InboxEvent } from './notifications/inbox-stream';
import type { BookmarkEvent } from './bookmarks/bookmark-stream';
import type { CalendarFeedEvent } from './events/calendar-feed-stream';
import type { PostEvent } from './feed/post-stream';
import type { MemberEvent } from './members/member-stream';
import type { SubscriptionEvent } from './subscriptions/subscription-stream';
import type { SitePageEvent } from './site-pages/site-page-stream';
import type { SiteSettingsEvent } from './site-pages/site-settings-stream';
import type { MediaEvent } from './media/media-stream';
import type { CategoryEvent, ReadingEvent, ReplyEvent, TopicEvent } from './discussions/events';

export const STREAM_TYPES = [
  'member',
  'email',
  'founder',
  'event',
  'post',
  'blog',
  'subscription',
  'page',
  'calendar',
  'comment',
  'inbox',
  'bookmarks',
  'media',
  'slug',
  'site',
  'category',
  'topic',
  'reply',
  'reading',
] as const;
export type StreamType = (typeof STREAM_TYPES)[number];

/**
 * The member who holds an address, or who founded the community. An address stream's last event says who holds
 * it now: a member who moved to another address releases the old one, which may then be claimed again.
 */
export type EmailClaimed = { type: 'EmailClaimed'; data: { memberId: string } };
export type EmailReleased = { type: 'EmailReleased'; data: { memberId: string } };
export type FounderClaimed = { type: 'FounderClaimed'; data: { memberId: string } };
/** A blog post's address, held by one post for good (an earlier slug keeps leading to it). */
export type BlogSlugClaimed = { type: 'BlogSlugClaimed'; data: { postId: string } };

/** The events each stream type holds: what its decider (or, for the claims, the registration) appends. */
export type StreamEvents = {
  member: MemberEvent;
  email: EmailClaimed | EmailReleased;
  founder: FounderClaimed;
  event: CalendarEventEvent;
  post: PostEvent;
  blog: BlogPostEvent;
  subscription: SubscriptionEvent;
  page: SitePageEvent;
  calendar: CalendarFeedEvent;
  comment: CommentEvent;
  inbox: InboxEvent;
  bookmarks: BookmarkEvent;
  media: MediaEvent;
  slug: BlogSlugClaimed;
  site: SiteSettingsEvent;
  category: CategoryEvent;
  topic: TopicEvent;
  reply: ReplyEvent;
  reading: ReadingEvent;
};

export function streamName(type: StreamType, id: string): string {
  return `${type}-${id}`;
}

const isStreamType = (type: string): type is StreamType => STREAM_TYPES.some((known) => known === type);

/** Splits `event-<uuid>` into its type and id (ids may contain dashes); null for a name of no known stream type. */
export function parseStreamName(name: string): { type: StreamType; id: string } | null {
  const dash = name.indexOf('-');
  const type = name.slice(0, dash);
  return dash >= 0 && isStreamType(type) ? { type, id: name.slice(dash + 1) } : null;
}
