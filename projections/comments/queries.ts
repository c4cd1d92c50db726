/** Comments as the API answers them. */
import type { Comment } from '../../shared/comments/schemas';
import type { CommentDocument } from './comments';

export function commentDto(comment: CommentDocument): Comment {
  return {
    id: comment._id,
    targetType: comment.targetType,
    targetId: comment.targetId,
    parentId: comment.parentId,
    author: comment.author,
    content: comment.content,
    createdAt: comment.createdAt,
    editedAt: comment.editedAt,
    removed: comment.removed,
  };
}
