/** Business constants of the newsfeed and its share control (docs/domain/feed.md#constants). */

export const MEDIA_TYPES = ['image', 'video', 'audio', 'youtube', 'link'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const POST_CONTENT_MAX_LENGTH = 5_000;
export const MEDIA_TITLE_MAX_LENGTH = 200;
export const MEDIA_URL_MAX_LENGTH = 2_048;
/** Tags one feed post, event or blog post may carry, counted after normalisation and without repeats. */
export const MAX_TAGS_PER_ITEM = 10;
/** Characters (code points) of one tag, after normalisation. */
export const TAG_MAX_LENGTH = 40;

/** A post is trending when it has more than this many likes (strictly greater). */
export const TRENDING_LIKES = 20;

export const FEED_PAGE_SIZE = 20;

export const SHARE_POPUP = { width: 626, height: 436 } as const;
/** The shared title is the author name plus this many characters of the content. */
export const SHARE_TITLE_LENGTH = 100;
/** The blog post share description: the excerpt, else this many characters of the stripped content. */
export const SHARE_DESCRIPTION_LENGTH = 200;

/** Where a post is in its life: submitted (pending), approved or rejected by staff, deleted. */
export const POST_STATUSES = ['none', 'pending', 'approved', 'rejected', 'deleted'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];
