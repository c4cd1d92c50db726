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

/**
 * Every discussion event's name, by stream: category, topic, reply, reading. A record, so that the compiler finds a
 * name missing as well as one misspelt.
 */
const NAMES: Record<DiscussionEventType, true> = {
  CategoryCreated: true,
  CategoryChanged: true,
  CategoryDeleted: true,
  TopicStarted: true,
  TopicEdited: true,
  TopicPinned: true,
  TopicLocked: true,
  TopicMoved: true,
  TopicReported: true,
  TopicReportsDismissed: true,
  TopicRemoved: true,
  ReplyPosted: true,
  ReplyEdited: true,
  ReplyDeleted: true,
  ReplyReported: true,
  ReplyReportsDismissed: true,
  TopicReadUpTo: true,
  TopicWatchChanged: true,
};
export const DISCUSSION_EVENT_TYPES = Object.keys(NAMES) as DiscussionEventType[];
