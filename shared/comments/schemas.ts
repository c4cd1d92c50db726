import * as v from 'valibot';
import { ROLES } from '../domain';
import { text, writtenText } from '../text-schema';
import { COMMENT_MAX_LENGTH, COMMENT_TARGET_TYPES } from './constants';

const content = writtenText('Comment', 'Comment cannot be empty', COMMENT_MAX_LENGTH);

/** A new comment, or a reply to one (one level deep). */
export const NewCommentSchema = v.object({
  content,
  parentId: v.nullish(v.pipe(text(), v.uuid('The comment replied to was not found'))),
});
export type NewComment = v.InferOutput<typeof NewCommentSchema>;

export const CommentEditSchema = v.object({ content });

export const CommentSchema = v.object({
  id: v.string(),
  targetType: v.picklist(COMMENT_TARGET_TYPES),
  targetId: v.string(),
  parentId: v.nullable(v.string()),
  author: v.object({ id: v.string(), name: v.string(), avatar: v.nullable(v.string()), role: v.picklist(ROLES) }),
  /** Empty once removed: the thread keeps a "removed" line in its place. */
  content: v.string(),
  createdAt: v.string(),
  editedAt: v.nullable(v.string()),
  removed: v.boolean(),
});
export type Comment = v.InferOutput<typeof CommentSchema>;
