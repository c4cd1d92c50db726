/** Comments (docs/domain/comments.md): what they may be written on, and how long they may be. */
export const COMMENT_TARGET_TYPES = ['post', 'blog'] as const;
export type CommentTargetType = (typeof COMMENT_TARGET_TYPES)[number];

export const COMMENT_MAX_LENGTH = 2000;
/** A thread's page, oldest first. */
export const COMMENT_PAGE_SIZE = 50;
