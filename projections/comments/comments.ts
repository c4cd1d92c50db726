/**
 * Comments' read model (docs/domain/comments.md): `comments`, one document per comment, a thread read oldest first.
 * A removed comment stays, with no content, so the thread keeps its "removed" line and its replies their place.
 * Change notices go to the rooms that may see the comment's target. The targets' counts are kept by their own
 * projections (feed, blog), from the same events.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { Role } from '../../shared/domain';
import type { CommentTargetType } from '../../shared/comments/constants';
import { displayName } from '../../shared/members/display';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { ROOMS, type Room } from '../../shared/socket-messages';
import { membersCollection } from '../members/members';
import { feedPosts } from '../feed/feed';
import { blogPosts } from '../blog/blog';

export const COMMENTS = 'comments';

export type CommentDocument = Positioned & {
  _id: string;
  targetType: CommentTargetType;
  targetId: string;
  parentId: string | null;
  authorId: string;
  author: { id: string; name: string; avatar: string | null; role: Role };
  content: string;
  createdAt: string;
  editedAt: string | null;
  removed: boolean;
  removedBy: string | null;
  reportedBy: string[];
  reports: number;
};

export const commentsCollection = (store: DocumentStore) => store.collection<CommentDocument>(COMMENTS);


/** Who may see a target's thread: everyone when the post is in the feed or the blog post is published; else staff (and a post's author). */
async function targetRooms(store: DocumentStore, targetType: CommentTargetType, targetId: string): Promise<Room[]> {
  if (targetType === 'post') {
    const post = await feedPosts(store).findOne({ _id: targetId });
    if (post?.status === 'approved') return [ROOMS.members, ROOMS.public];
    return post ? [ROOMS.staff, ROOMS.member(post.authorId)] : [ROOMS.staff];
  }
  const post = await blogPosts(store).findOne({ _id: targetId });
  return post?.isPublished ? [ROOMS.members, ROOMS.public] : [ROOMS.staff];
}

export const commentsProjection: Projection = {
  name: 'comments',
  version: 1,
  collections: [COMMENTS],
  async setup(store) {
    await commentsCollection(store).createIndex({ targetType: 1, targetId: 1, createdAt: 1, _id: 1 });
    await commentsCollection(store).createIndex({ reports: 1 });
  },
  async apply(recorded, { store, notify }) {
    const typed = typedEvent(recorded);
    if (typed?.stream !== 'comment') return;
    const { id, event } = typed;
    const comments = commentsCollection(store);
    const at = recorded.position;
    const change = (update: (comment: CommentDocument) => Partial<CommentDocument>) =>
      applyToDocument(comments, id, at, (current) => (current ? { ...current, ...update(current) } : null));

    switch (event.type) {
      case 'CommentWritten': {
        const data = event.data;
        const member = await membersCollection(store).findOne({ _id: data.authorId });
        await applyToDocument(comments, id, at, () => ({
          targetType: data.targetType,
          targetId: data.targetId,
          parentId: data.parentId,
          authorId: data.authorId,
          author: { id: data.authorId, name: member ? displayName(member) : 'Former member', avatar: member?.profileImageUrl ?? null, role: data.authorRole },
          content: data.content,
          createdAt: data.at,
          editedAt: null,
          removed: false,
          removedBy: null,
          reportedBy: [],
          reports: 0,
        }));
        break;
      }
      case 'CommentEdited':
        await change(() => ({ content: event.data.content, editedAt: event.data.at }));
        break;
      case 'CommentRemoved':
        await change(() => ({ content: '', removed: true, removedBy: event.data.by }));
        break;
      case 'CommentReported':
        await change((comment) => (comment.reportedBy.includes(event.data.memberId) ? {} : { reportedBy: [...comment.reportedBy, event.data.memberId], reports: comment.reports + 1 }));
        break;
      case 'CommentReportsDismissed':
        await change(() => ({ reportedBy: [], reports: 0 }));
        break;
    }
    const { targetType, targetId } = event.data;
    const kind = event.type === 'CommentWritten' ? 'created' : event.type === 'CommentRemoved' ? 'removed' : 'updated';
    notify({ message: 'comments:changed', rooms: await targetRooms(store, targetType, targetId), payload: { targetType, targetId, id, kind } });
  },
};
