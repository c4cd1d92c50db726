/** Input and answer schemas of the blog calls (docs/domain/blog.md#validation). */
import * as v from 'valibot';
import { TagsSchema } from '../feed/schemas';
import { text } from '../text-schema';
import { ROLES } from '../domain';
import { MediaIdSchema, MediaSchema } from '../media/schemas';
import { SlugSchema } from './slug';

export const TITLE_MAX_LENGTH = 255;
export const EXCERPT_MAX_LENGTH = 1_000;
/** Generous for a long article with markup, small enough to bound sanitising time. */
export const CONTENT_MAX_LENGTH = 200_000;

// A missing field reads as '' so that it gets the same "… is required" message as an empty one.
const title = v.pipe(
  v.optional(text('Title is required'), ''),
  v.trim(),
  v.nonEmpty('Title is required'),
  v.maxLength(TITLE_MAX_LENGTH, `Title must be at most ${TITLE_MAX_LENGTH} characters`),
);
const content = v.pipe(
  v.optional(text('Content is required'), ''),
  v.trim(),
  v.nonEmpty('Content is required'),
  v.maxLength(CONTENT_MAX_LENGTH, 'Content is too long'),
);
/** Empty means "generate it from the content" (done on the server). */
const excerpt = v.nullish(
  v.pipe(
    text('Excerpt must be text'),
    v.trim(),
    v.maxLength(EXCERPT_MAX_LENGTH, `Excerpt must be at most ${EXCERPT_MAX_LENGTH} characters`),
  ),
  '',
);
/** Whether `2030-02-31T…` names a day the calendar has (Date.parse rolls it over to March). */
function realDay(at: string): boolean {
  const [year, month, day] = at.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A time to publish at: an ISO 8601 date and time with its offset, kept in UTC. */
export const PublishAtSchema = v.pipe(
  text('publishAt must be a date and time'),
  v.regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/u,
    'publishAt must be an ISO 8601 date and time, e.g. 2030-01-31T09:00:00Z',
  ),
  v.check((at) => !Number.isNaN(Date.parse(at)) && realDay(at), 'publishAt must be a real date and time'),
  v.transform((at) => new Date(at).toISOString()),
);
const flag = (name: string) => v.optional(v.boolean(`${name} must be true or false`), false);

export const CreateBlogPostSchema = v.object({
  title,
  content,
  excerpt,
  isPublished: flag('isPublished'),
  isPinned: flag('isPinned'),
  isFeatured: flag('isFeatured'),
  tags: v.optional(TagsSchema, []),
  /** An upload shown at the top of the post (docs/domain/media.md#posts). */
  mediaId: v.optional(v.nullable(MediaIdSchema), null),
  /** A future time: the post is published then, not now (docs/domain/blog.md#scheduling). */
  publishAt: v.optional(PublishAtSchema),
  /** Its address; absent, made from the title. A taken one gets -2, -3… */
  slug: v.optional(SlugSchema),
});
export type CreateBlogPostInput = v.InferOutput<typeof CreateBlogPostSchema>;

/** The edit dialog sends the whole edited record; tags and the upload stay as they are when absent (`mediaId: null` takes the upload away). */
export const UpdateBlogPostSchema = v.object({
  title,
  excerpt,
  content,
  tags: v.optional(TagsSchema),
  mediaId: v.optional(v.nullable(MediaIdSchema)),
  /** The post's address; absent keeps it, a taken one gets -2, -3… */
  slug: v.optional(SlugSchema),
  /** A future time schedules the post; null takes the schedule away; absent leaves it. */
  publishAt: v.optional(v.nullable(PublishAtSchema)),
});
export type UpdateBlogPostInput = v.InferOutput<typeof UpdateBlogPostSchema>;

/** A blog post as the API answers it: `content` is the sanitised HTML, `publishedAt` null until first published. */
export const BlogPostSchema = v.object({
  id: v.string(),
  title: v.string(),
  /** Its address: `/blog/<slug>`. */
  slug: v.string(),
  excerpt: v.string(),
  content: v.string(),
  tags: v.array(v.string()),
  /** An uploaded picture or recording shown with the post, its picture at the blog's size. */
  media: v.optional(MediaSchema),
  isPublished: v.boolean(),
  isPinned: v.boolean(),
  isFeatured: v.boolean(),
  createdAt: v.string(),
  updatedAt: v.string(),
  publishedAt: v.nullable(v.string()),
  /** When a scheduled post will be published; null when it is not scheduled. */
  publishAt: v.nullable(v.string()),
  author: v.object({
    id: v.string(),
    name: v.string(),
    role: v.picklist(ROLES),
    firstName: v.string(),
    lastName: v.string(),
    profileImageUrl: v.nullable(v.string()),
  }),
  /** Comments in its thread that are not removed. */
  comments: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type BlogPost = v.InferOutput<typeof BlogPostSchema>;

/** The time zone the editor's "Schedule" field is in: the site's (TIME_ZONE). */
export const BlogScheduleZoneSchema = v.object({ timeZone: v.string() });

/** What the editor's live preview sends: the draft as typed, before any rule about it being complete. */
export const BlogPreviewRequestSchema = v.object({
  content: v.optional(v.pipe(text(), v.maxLength(CONTENT_MAX_LENGTH, 'Content is too long')), ''),
  excerpt: v.nullish(
    v.pipe(text(), v.trim(), v.maxLength(EXCERPT_MAX_LENGTH, `Excerpt must be at most ${EXCERPT_MAX_LENGTH} characters`)),
    '',
  ),
});

/** The sanitised HTML and the excerpt a save would store. */
export const BlogPreviewSchema = v.object({ content: v.string(), excerpt: v.string(), excerptGenerated: v.boolean() });
export type BlogPreview = v.InferOutput<typeof BlogPreviewSchema>;

/** Who saved a revision: their name now ("Former member" once erased). */
const RevisionAuthorSchema = v.object({ id: v.string(), name: v.string() });

/** A save of a post, as the History dialog lists it (docs/domain/blog.md#revisions). */
export const BlogRevisionSummarySchema = v.object({
  id: v.string(),
  /** When it was saved. */
  at: v.string(),
  author: RevisionAuthorSchema,
  title: v.string(),
});
export type BlogRevisionSummary = v.InferOutput<typeof BlogRevisionSummarySchema>;

/** A revision's text, for its preview: the sanitised HTML as it was saved. */
export const BlogRevisionSchema = v.object({
  ...BlogRevisionSummarySchema.entries,
  excerpt: v.string(),
  content: v.string(),
  tags: v.array(v.string()),
});
export type BlogRevision = v.InferOutput<typeof BlogRevisionSchema>;
