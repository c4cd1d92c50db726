/** Discussions (docs/domain/discussions.md): limits and the watch levels. */

export const CATEGORY_NAME_MAX_LENGTH = 60;
export const CATEGORY_DESCRIPTION_MAX_LENGTH = 500;
/** A category's colour: `#rrggbb`. */
export const CATEGORY_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/u;

export const TOPIC_TITLE_MIN_LENGTH = 3;
export const TOPIC_TITLE_MAX_LENGTH = 200;
/** Rich text, as HTML after sanitising: a long post with quotes and links fits. */
export const DISCUSSION_CONTENT_MAX_LENGTH = 20_000;

/** Topics in one page of the list, and replies in one page of a topic (oldest first). */
export const TOPIC_PAGE_SIZE = 30;
export const REPLY_PAGE_SIZE = 50;
/** The unread count looks only at this many most recently active topics, so it costs the same as history grows. */
export const UNREAD_WINDOW = 200;

/** How closely a member follows a topic: watching gets every reply (by mail too), normal shows unread, muted hides it. */
export const WATCH_LEVELS = ['watching', 'normal', 'muted'] as const;
export type WatchLevel = (typeof WATCH_LEVELS)[number];
