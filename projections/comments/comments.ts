/**
 * Comments' read model (docs/domain/comments.md): `comments`, one document per comment, a thread read oldest first.
 * A removed comment stays, with no content, so the thread keeps its "removed" line and its replies their place.
 * Change notices go to the rooms that may see the comment's target, which `comment_targets` keeps from the posts' and
 * blog posts' own events. A comment keeps its author's id and role; their name and picture are read with it from
 * `comment_authors`, kept from the members' events, so a new name writes one document whatever its owner wrote.
 * The targets' counts are kept by their own projections (feed, blog), from the same events.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { Role } from '../../shared/domain';
import type { CommentTargetType } from '../../shared/comments/constants';
import { bylineChange, type BylineDocument } from '../../shared/members/byline';
import type { MemberEvent } from '../../shared/members/member-stream';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import { typedEvent, type TypedEvent } from '../../platform/projections/typed-event';
import { ROOMS, type Room } from '../../shared/socket-messages';

export const COMMENTS = 'comments';
export const COMMENT_AUTHORS = 'comment_authors';
export const COMMENT_TARGETS = 'comment_targets';

export type CommentDocument = Positioned & {
  _id: string;
  targetType: CommentTargetType;
  targetId: string;
  parentId: string | null;
  authorId: string;
  /** As written: the role they wrote it in (their name and picture are read from `comment_authors`). */
  author: { id: string; role: Role };
  content: string;
  createdAt: string;
  editedAt: string | null;
  removed: boolean;
  removedBy: string | null;
  reportedBy: string[];
  reports: number;
};

/** An author's byline, until they are erased. */
type AuthorDocument = Positioned & BylineDocument;
/** A post or blog post comments are written on, keyed `<targetType>:<id>`: whether everyone may read it, and a post's author. */
type TargetDocument = Positioned & { _id: string; open: boolean; authorId: string | null };

export const commentsCollection = (store: DocumentStore) => store.collection<CommentDocument>(COMMENTS);
export const commentAuthors = (store: DocumentStore) => store.collection<AuthorDocument>(COMMENT_AUTHORS);
const targets = (store: DocumentStore) => store.collection<TargetDocument>(COMMENT_TARGETS);

/** Who may see a target's thread: everyone when the post is in the feed or the blog post is published; else staff (and a post's author). */
async function targetRooms(store: DocumentStore, targetType: CommentTargetType, targetId: string): Promise<Room[]> {
  const target = await targets(store).findOne({ _id: `${targetType}:${targetId}` });
  if (target?.open) return [ROOMS.members, ROOMS.public];
  return target?.authorId ? [ROOMS.staff, ROOMS.member(target.authorId)] : [ROOMS.staff];
}

/** Whether a post or blog post takes comments, and who wrote it; written only by the events that change that. */
async function followTarget({ stream, id, event }: TypedEvent, at: number, store: DocumentStore) {
  let open: boolean;
  let authorId: string | null = null;
  switch (event.type) {
    case 'PostSubmitted':
      open = event.data.approved;
      authorId = event.data.authorId;
      break;
    case 'PostApproved':
    case 'BlogPostPublished':
      open = true;
      break;
    case 'BlogPostDrafted':
    case 'PostRejected':
    case 'BlogPostUnpublished':
      open = false;
      break;
    case 'PostDeleted':
    case 'BlogPostDeleted':
      return applyToDocument(targets(store), `${stream}:${id}`, at, () => null);
    default:
      // Most of a post's events (likes, shares) change neither.
      return;
  }
  return applyToDocument(targets(store), `${stream}:${id}`, at, (current) => ({ open, authorId: current?.authorId ?? authorId }));
}

/**
 * A comment shows its author's name and picture as they are now (the role as it was when written): their byline here,
 * which goes when they are erased, so their comments read "Former member". When they chose that their content goes,
 * their comments are emptied (docs/domain/members.md#erasure): found by their author, as erasures are rare.
 */
async function followAuthor(memberId: string, event: MemberEvent, at: number, { store }: ProjectionContext) {
  const change = bylineChange(event);
  if (!change) return;
  if (event.type === 'MemberErased' && event.data.content === 'removed') {
    const comments = commentsCollection(store);
    for (const { _id } of await comments.find({ authorId: memberId }, { fields: ['_id'] }))
      await applyToDocument(comments, _id, at, (comment) => comment && { ...comment, content: '', removed: true, removedBy: memberId });
  }
  await applyToDocument(commentAuthors(store), memberId, at, (current) => {
    const byline = change(current?.byline ?? null);
    return byline && { byline };
  });
}

export const commentsProjection: Projection = {
  name: 'comments',
  // 4: without the index on reports, which no query used.
  // 5: named when read (a rename rewrote every comment of its member); found by author for an erasure and an export.
  version: 5,
  collections: [COMMENTS, COMMENT_AUTHORS, COMMENT_TARGETS],
  async setup(store) {
    await commentsCollection(store).createIndex({ targetType: 1, targetId: 1, createdAt: 1, _id: 1 });
    await commentsCollection(store).createIndex({ authorId: 1, createdAt: 1, _id: 1 });
  },
  async apply(recorded, context) {
    const { store, notify } = context;
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member') return followAuthor(typed.id, typed.event, recorded.position, context);
    if (typed?.stream === 'post' || typed?.stream === 'blog') return followTarget(typed, recorded.position, store);
    if (typed?.stream !== 'comment') return;
    const { id, event } = typed;
    const comments = commentsCollection(store);
    const at = recorded.position;
    const change = (update: (comment: CommentDocument) => Partial<CommentDocument>) =>
      applyToDocument(comments, id, at, (current) => (current ? { ...current, ...update(current) } : null));

    switch (event.type) {
      case 'CommentWritten': {
        const data = event.data;
        await applyToDocument(comments, id, at, () => ({
          targetType: data.targetType,
          targetId: data.targetId,
          parentId: data.parentId,
          authorId: data.authorId,
          author: { id: data.authorId, role: data.authorRole },
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
        await change((comment) =>
          comment.reportedBy.includes(event.data.memberId)
            ? {}
            : { reportedBy: [...comment.reportedBy, event.data.memberId], reports: comment.reports + 1 },
        );
        break;
      case 'CommentReportsDismissed':
        await change(() => ({ reportedBy: [], reports: 0 }));
        break;
    }
    const { targetType, targetId } = event.data;
    const kind = event.type === 'CommentWritten' ? 'created' : event.type === 'CommentRemoved' ? 'removed' : 'updated';
    if (context.live)
      notify({
        message: 'comments:changed',
        rooms: await targetRooms(store, targetType, targetId),
        payload: { targetType, targetId, id, kind },
      });
  },
};
