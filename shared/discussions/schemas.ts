/**
 * Discussions' shapes (docs/domain/discussions.md): what the routes take and answer, shared with the client.
 *
 * `content` (a topic's opening post, a reply) is rich text: HTML, sanitised once on write on the server (the blog's
 * allow-list). Plain text with no markup is taken as the composer writes it: paragraphs, and lines beginning with
 * `>` as a quote. Readers show it as HTML.
 */
import * as v from 'valibot';
import { ROLES } from '../domain';
import { text, writtenText } from '../text-schema';
import { TagsSchema } from '../feed/schemas';
import { pageSchema } from '../page';
import {
  CATEGORY_COLOR_PATTERN,
  CATEGORY_DESCRIPTION_MAX_LENGTH,
  CATEGORY_NAME_MAX_LENGTH,
  DISCUSSION_CONTENT_MAX_LENGTH,
  TOPIC_TITLE_MAX_LENGTH,
  TOPIC_TITLE_MIN_LENGTH,
  WATCH_LEVELS,
} from './constants';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const id = (notFound: string) => v.pipe(text(), v.trim(), v.uuid(notFound));

const categoryName = writtenText('Category name', 'Category name is required', CATEGORY_NAME_MAX_LENGTH);
const categoryDescription = v.pipe(
  text('Description must be text'),
  v.trim(),
  v.maxLength(CATEGORY_DESCRIPTION_MAX_LENGTH, `Description must be at most ${CATEGORY_DESCRIPTION_MAX_LENGTH} characters`),
);
const categoryColor = v.pipe(text('Colour must be text'), v.trim(), v.regex(CATEGORY_COLOR_PATTERN, 'Colour must be like #1a6fb0'));

export const NewCategorySchema = v.object({
  name: categoryName,
  description: v.optional(categoryDescription, ''),
  color: v.optional(categoryColor, '#5b6b7a'),
});
export type NewCategory = v.InferOutput<typeof NewCategorySchema>;
export const CategoryChangeSchema = v.object({
  name: v.optional(categoryName),
  description: v.optional(categoryDescription),
  color: v.optional(categoryColor),
});

export const CategorySchema = v.object({
  id: v.string(),
  slug: v.string(),
  name: v.string(),
  description: v.string(),
  color: v.string(),
  /** Topics in it now (removed ones not counted). */
  topicCount: count,
});
export type Category = v.InferOutput<typeof CategorySchema>;

const title = v.pipe(
  text('Title must be text'),
  v.trim(),
  v.minLength(TOPIC_TITLE_MIN_LENGTH, `Title must be at least ${TOPIC_TITLE_MIN_LENGTH} characters`),
  v.maxLength(TOPIC_TITLE_MAX_LENGTH, `Title must be at most ${TOPIC_TITLE_MAX_LENGTH} characters`),
);
/** Before sanitising; what is left after it is checked again (an empty post after sanitising is refused too). */
export const discussionContent = writtenText('Text', 'Write something first', DISCUSSION_CONTENT_MAX_LENGTH);

export const NewTopicSchema = v.object({
  title,
  content: discussionContent,
  categoryId: id('Category not found'),
  tags: v.optional(TagsSchema, []),
});
export type NewTopic = v.InferOutput<typeof NewTopicSchema>;
export const TopicEditSchema = v.object({ title: v.optional(title), content: v.optional(discussionContent), tags: v.optional(TagsSchema) });

export const NewReplySchema = v.object({
  content: discussionContent,
  /** The reply this one answers (quotes), in the same topic. */
  replyTo: v.nullish(id('The reply answered was not found')),
});
export type NewReply = v.InferOutput<typeof NewReplySchema>;
export const ReplyEditSchema = v.object({ content: discussionContent });

export const ReadUpToSchema = v.object({ upTo: id('Reply not found') });
export const WatchSchema = v.object({ level: v.picklist(WATCH_LEVELS, 'level must be watching, normal or muted') });
export const TopicModerationSchema = v.object({
  pinned: v.optional(v.boolean('pinned must be true or false')),
  locked: v.optional(v.boolean('locked must be true or false')),
  categoryId: v.optional(id('Category not found')),
});

const AuthorSchema = v.object({ id: v.string(), name: v.string(), avatar: v.nullable(v.string()), role: v.picklist(ROLES) });
const CategoryRefSchema = v.object({ id: v.string(), slug: v.string(), name: v.string(), color: v.string() });

/** A topic in the list. `unread`: replies since I last read it (all of them in a topic begun since I joined and never opened). */
export const TopicSummarySchema = v.object({
  id: v.string(),
  title: v.string(),
  category: CategoryRefSchema,
  author: AuthorSchema,
  tags: v.array(v.string()),
  replyCount: count,
  lastReplyAt: v.nullable(v.string()),
  /** When anything last happened in it: its last reply, or its start. */
  activeAt: v.string(),
  createdAt: v.string(),
  pinned: v.boolean(),
  locked: v.boolean(),
  unread: count,
  /** Begun since I joined and never opened by me. */
  new: v.boolean(),
  watch: v.picklist(WATCH_LEVELS),
});
export type TopicSummary = v.InferOutput<typeof TopicSummarySchema>;

/** A topic as its page shows it: the list's fields, its opening post, and my place in it. */
export const TopicSchema = v.object({
  ...TopicSummarySchema.entries,
  content: v.string(),
  editedAt: v.nullable(v.string()),
  /** The number of the last reply I read (0: none yet), null when I never opened it. */
  readUpTo: v.nullable(count),
});
export type Topic = v.InferOutput<typeof TopicSchema>;

export const ReplySchema = v.object({
  id: v.string(),
  topicId: v.string(),
  /** Its place in the topic: 1 for the first reply. */
  number: count,
  replyTo: v.nullable(v.object({ id: v.string(), number: count, author: v.object({ id: v.string(), name: v.string() }) })),
  author: AuthorSchema,
  /** Empty once deleted: the topic keeps a "deleted" line in its place. */
  content: v.string(),
  createdAt: v.string(),
  editedAt: v.nullable(v.string()),
  /** Earlier texts kept (GET /api/replies/{id}/revisions, for its author and staff). */
  edits: count,
  deleted: v.boolean(),
  via: v.picklist(['web', 'email']),
});
export type Reply = v.InferOutput<typeof ReplySchema>;

export const TopicPageSchema = v.object({ topic: TopicSchema, replies: pageSchema(ReplySchema) });
export type TopicPage = v.InferOutput<typeof TopicPageSchema>;

/** One text of a reply, newest first; `current` is the text it shows now. */
export const ReplyRevisionSchema = v.object({ content: v.string(), at: v.string(), current: v.boolean() });
export type ReplyRevision = v.InferOutput<typeof ReplyRevisionSchema>;

export const ReadPositionSchema = v.object({ topicId: v.string(), readUpTo: count, unread: count });
export const WatchAnswerSchema = v.object({ topicId: v.string(), level: v.picklist(WATCH_LEVELS) });
export const UnreadTopicsSchema = v.object({ count });
