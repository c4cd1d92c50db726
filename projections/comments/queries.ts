/** Comments as the API answers them: each author named as they are now. */
import type { DocumentStore } from '../../platform/document-store/port';
import { bylinesOf, shownAuthor } from '../../shared/members/byline';
import type { Comment } from '../../shared/comments/schemas';
import { commentAuthors, type CommentDocument } from './comments';

export async function commentDtos(store: DocumentStore, comments: readonly CommentDocument[]): Promise<Comment[]> {
  const bylines = await bylinesOf(
    commentAuthors(store),
    comments.map((comment) => comment.authorId),
  );
  return comments.map((comment) => ({
    id: comment._id,
    targetType: comment.targetType,
    targetId: comment.targetId,
    parentId: comment.parentId,
    author: shownAuthor(comment.author, bylines),
    content: comment.content,
    createdAt: comment.createdAt,
    editedAt: comment.editedAt,
    removed: comment.removed,
  }));
}
