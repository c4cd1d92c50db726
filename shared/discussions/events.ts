/**
 * The discussions' domain events, in one place for whoever follows them (the projections, the mail runner's watcher
 * mail): their types and names. Streams: `category-<id>`, `topic-<id>`, `reply-<id>`, `reading-<topicId>:<memberId>`.
 */
import type { CategoryEvent } from './category-stream';
import type { ReadingEvent } from './reading-stream';
import type { ReplyEvent } from './reply-stream';
import type { TopicEvent } from './topic-stream';

export type { CategoryEvent, ReadingEvent, ReplyEvent, TopicEvent };
export type DiscussionEvent = CategoryEvent | TopicEvent | ReplyEvent | ReadingEvent;
export type DiscussionEventType = DiscussionEvent['type'];

export const CATEGORY_EVENT_TYPES = [
  'CategoryCreated',
  'CategoryChanged',
  'CategoryDeleted',
] as const satisfies readonly CategoryEvent['type'][];
export const TOPIC_EVENT_TYPES = [
  'TopicStarted',
  'TopicEdited',
  'TopicPinned',
  'TopicLocked',
  'TopicMoved',
  'TopicReported',
  'TopicReportsDismissed',
  'TopicRemoved',
] as const satisfies readonly TopicEvent['type'][];
export const REPLY_EVENT_TYPES = [
  'ReplyPosted',
  'ReplyEdited',
  'ReplyDeleted',
  'ReplyReported',
  'ReplyReportsDismissed',
] as const satisfies readonly ReplyEvent['type'][];
export const READING_EVENT_TYPES = ['TopicReadUpTo', 'TopicWatchChanged'] as const satisfies readonly ReadingEvent['type'][];

/** Every discussion event's name. */
export const DISCUSSION_EVENT_TYPES = [
  ...CATEGORY_EVENT_TYPES,
  ...TOPIC_EVENT_TYPES,
  ...REPLY_EVENT_TYPES,
  ...READING_EVENT_TYPES,
] as const satisfies readonly DiscussionEventType[];
