/** Input and answer schemas of the newsfeed calls (docs/domain/feed.md). */
import * as v from 'valibot';
import {
  MAX_TAGS_PER_ITEM,
  MEDIA_TITLE_MAX_LENGTH,
  MEDIA_TYPES,
  MEDIA_URL_MAX_LENGTH,
  POST_STATUSES,
  POST_CONTENT_MAX_LENGTH,
  TAG_MAX_LENGTH,
  type MediaType,
} from './constants';
import { isHttpUrl, youtubeEmbedUrl } from './media';
import { normalizeTag, normalizeTags, TAG_TOO_LONG, tagLength, TOO_MANY_TAGS } from './tags';
import { text } from '../text-schema';
import { ROLES } from '../domain';
import { MediaIdSchema, MediaSchema } from '../media/schemas';

const REASON_MAX_LENGTH = 500;

/**
 * A list of tags, each normalised by `normalize`, empties and repeats dropped. The limits apply to what is kept,
 * as a person reads the list: "#Radio" and "radio" are one tag.
 */
export const tagsSchema = (normalize: (tag: string) => string) =>
  v.pipe(
    v.array(text('Tags must be text'), 'Tags must be a list'),
    v.transform((tags: string[]) => normalizeTags(tags, normalize)),
    v.maxLength(MAX_TAGS_PER_ITEM, TOO_MANY_TAGS),
    v.check((tags) => tags.every((tag) => tagLength(tag) <= TAG_MAX_LENGTH), TAG_TOO_LONG),
  );

/** Feed and blog tags, normalised as the composer does (see `normalizeTag`). */
export const TagsSchema = tagsSchema(normalizeTag);

/**
 * A new feed post. Media rules: a media URL must be http(s); a media type needs a
 * URL ("youtube" needs a YouTube video link); a URL without a type is a 'link'; a
 * media title without a URL is dropped. Null, absent and blank media fields all mean
 * "none" (the composer sends cleared fields). `mediaId` names an upload of the author's
 * (POST /api/media) instead of a media URL; the route turns it into the post's `media`.
 * Output fields are never undefined.
 */
export const NewPostSchema = v.pipe(
  v.object({
    content: v.pipe(
      // A missing field reads as '' so that it gets the same message as an empty one.
      v.optional(text('Post content is required'), ''),
      v.trim(),
      v.nonEmpty('Post content is required'),
      v.maxLength(POST_CONTENT_MAX_LENGTH, 'Post content must be at most 5,000 characters'),
    ),
    mediaType: v.optional(v.nullable(v.picklist(MEDIA_TYPES, `Media type must be one of ${MEDIA_TYPES.join(', ')}`)), null),
    mediaUrl: v.optional(
      v.nullable(
        v.pipe(
          text('Media URL must be a web address'),
          v.trim(),
          v.maxLength(MEDIA_URL_MAX_LENGTH, 'Media URL is too long'),
          v.check((url) => url === '' || isHttpUrl(url), 'Media URL must start with http:// or https://'),
        ),
      ),
      null,
    ),
    mediaTitle: v.optional(
      v.nullable(
        v.pipe(
          text('Media title must be text'),
          v.trim(),
          v.maxLength(MEDIA_TITLE_MAX_LENGTH, 'Media title must be at most 200 characters'),
        ),
      ),
      null,
    ),
    tags: v.optional(TagsSchema, []),
    mediaId: v.optional(v.nullable(MediaIdSchema), null),
  }),
  v.forward(
    v.partialCheck(
      [['mediaId'], ['mediaUrl']],
      ({ mediaId, mediaUrl }) => !mediaId || !mediaUrl,
      'Attach an upload or give a media URL, not both',
    ),
    ['mediaId'],
  ),
  v.forward(
    v.partialCheck(
      [['mediaType'], ['mediaUrl']],
      ({ mediaType, mediaUrl }) => !mediaType || !!mediaUrl,
      'Add a media URL for the chosen media type',
    ),
    ['mediaUrl'],
  ),
  v.forward(
    v.partialCheck(
      [['mediaType'], ['mediaUrl']],
      ({ mediaType, mediaUrl }) => mediaType !== 'youtube' || !mediaUrl || youtubeEmbedUrl(mediaUrl) !== null,
      'Enter a YouTube video link (youtube.com/watch?v=…, youtu.be/… or /shorts/…)',
    ),
    ['mediaUrl'],
  ),
  v.transform(({ content, mediaType, mediaUrl, mediaTitle, tags, mediaId }): NewPost => {
    const url = mediaUrl || null;
    return {
      mediaId: url ? null : mediaId,
      content,
      mediaType: url ? (mediaType ?? 'link') : null,
      mediaUrl: url,
      mediaTitle: url ? mediaTitle || null : null,
      tags,
    };
  }),
);

export interface NewPost {
  /** An upload to show with the post (then the media fields are null). */
  mediaId?: string | null;
  content: string;
  mediaType: MediaType | null;
  mediaUrl: string | null;
  mediaTitle: string | null;
  tags: string[];
}

/** Body of reject and report: an optional reason shown to moderators. */
export const ReasonSchema = v.nullish(
  v.object({
    reason: v.optional(
      v.pipe(text('Reason must be text'), v.trim(), v.maxLength(REASON_MAX_LENGTH, 'Reason must be at most 500 characters')),
    ),
  }),
  {},
);

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** GET /api/stats, and what `stats:changed` may carry. */
export const CommunityStatsSchema = v.object({
  totalPosts: count,
  activeMembers: count,
  onlineNow: count,
  postsThisWeek: count,
  trendingTags: v.array(v.object({ tag: v.string(), count })),
});
export type CommunityStats = v.InferOutput<typeof CommunityStatsSchema>;

/** Who wrote a post, blog post or event, as the lists show them. */
export const AuthorSchema = v.object({ id: v.string(), name: v.string(), avatar: v.nullable(v.string()), role: v.picklist(ROLES) });

export const REVISION_STATUSES = ['original', 'applied', 'pending', 'rejected', 'replaced'] as const;

/** A post's text as one edit sets it. */
export const PostRevisionTextSchema = v.object({
  content: v.string(),
  mediaType: v.nullable(v.picklist(MEDIA_TYPES)),
  mediaUrl: v.nullable(v.string()),
  mediaTitle: v.nullable(v.string()),
  tags: v.array(v.string()),
  createdAt: v.string(),
});

/** A post as the API answers it; `likesCount` and `commentsCount` are the widgets' names for `likes` and `comments`. */
export const PostSchema = v.object({
  id: v.string(),
  author: AuthorSchema,
  content: v.string(),
  mediaType: v.nullable(v.picklist(MEDIA_TYPES)),
  mediaUrl: v.nullable(v.string()),
  mediaTitle: v.nullable(v.string()),
  /** An uploaded file shown with the post, with its size so the page does not shift while it loads; its address is also `mediaUrl`. */
  media: v.optional(MediaSchema),
  tags: v.array(v.string()),
  likes: count,
  likesCount: count,
  likedByMe: v.boolean(),
  comments: count,
  commentsCount: count,
  shares: count,
  isApproved: v.boolean(),
  isPinned: v.boolean(),
  status: v.picklist(POST_STATUSES),
  /** Only for its author and staff. */
  rejectionReason: v.optional(v.nullable(v.string())),
  /** Only for its author and staff. */
  reports: v.optional(count),
  /** Only for its author and staff: an edit of the author's waits for review while the approved text stays visible. */
  pendingRevision: v.optional(v.boolean()),
  /** Only for its author and staff, while `pendingRevision`: the edit that waits. */
  revision: v.optional(PostRevisionTextSchema),
  createdAt: v.string(),
  /** When the visible text last changed after posting (null: never). */
  editedAt: v.nullable(v.string()),
});
export type Post = v.InferOutput<typeof PostSchema>;

/** One text in a post's history (GET /api/posts/{id}/revisions), newest first. */
export const PostRevisionSchema = v.object({
  ...PostRevisionTextSchema.entries,
  id: v.string(),
  /** Who wrote it: the author, or staff who edited. */
  editedBy: v.object({ id: v.string(), name: v.string() }),
  /**
   * `original`: as first posted; `applied`: an edit that became the visible text; `pending`: waits for review;
   * `rejected`: staff kept the text before it; `replaced`: a held edit that a newer one replaced before review.
   */
  status: v.picklist(REVISION_STATUSES),
  /** The text everyone sees now. */
  current: v.boolean(),
});
export type PostRevision = v.InferOutput<typeof PostRevisionSchema>;

/**
 * PATCH /api/posts/{id}: the fields to change; those left out keep their value. The route merges them with the text
 * they change and parses the whole with `NewPostSchema`, so an edit meets the rules of a new post.
 */
export const PostEditSchema = v.object({
  content: v.optional(text('Post content is required')),
  tags: v.optional(v.array(text('Tags must be text'), 'Tags must be a list')),
  mediaUrl: v.optional(v.nullable(text('Media URL must be a web address'))),
  mediaType: v.optional(v.nullable(v.picklist(MEDIA_TYPES, `Media type must be one of ${MEDIA_TYPES.join(', ')}`))),
});
export type PostEdit = v.InferOutput<typeof PostEditSchema>;

/** PUT /api/admin/posts/{id}/pin: `{ pinned: false }` unpins; no body (or `pinned: true`) pins. */
export const PinSchema = v.nullish(v.object({ pinned: v.optional(v.boolean('pinned must be true or false'), true) }), { pinned: true });

/** GET /api/admin/stats: the admin dashboard's figures. */
export const AdminStatsSchema = v.object({ totalPosts: count, activeUsers: count, pendingApproval: count, reportedContent: count });
export type AdminStats = v.InferOutput<typeof AdminStatsSchema>;
