/**
 * A newsfeed post (stream `post-<id>`): submission, edits, moderation, likes, shares and reports.
 * The post's text arrives already parsed by `NewPostSchema` (an edit: merged with the text it changes, then parsed).
 */
import { type Actor, type CommandMetadata, type Decider, type Role, assertNever, fail } from '../domain';
import type { MediaType, PostStatus } from './constants';
import type { NewPost } from './schemas';
import type { Media } from '../media/schemas';
import { dismissalOf, reportOf, withReporter } from '../reports/rules';

/** What an edit sets: the post's text and media, whole (the route merges a partial edit with what it changes). */
export interface PostText {
  content: string;
  mediaType: MediaType | null;
  mediaUrl: string | null;
  mediaTitle: string | null;
  tags: string[];
  /** An upload of the author's kept with the post (absent when none). */
  media?: Media;
}

export type PostEvent =
  | {
      type: 'PostSubmitted';
      data: {
        id: string;
        authorId: string;
        authorRole: Role;
        content: string;
        mediaType: MediaType | null;
        mediaUrl: string | null;
        mediaTitle: string | null;
        tags: string[];
        submittedAt: string;
        /** True for admin and staff authors: their posts skip the moderation queue. */
        approved: boolean;
        /** Members named with `@First Last` (absent when none). */
        mentions?: string[];
        /** An upload of the author's shown with the post (absent when none); mediaType and mediaUrl then name it too. */
        media?: Media;
      };
    }
  | { type: 'PostApproved'; data: { by: string; at: string } }
  | { type: 'PostRejected'; data: { by: string; reason?: string; at: string } }
  | { type: 'PostPinned'; data: { by: string; at: string } }
  | { type: 'PostUnpinned'; data: { by: string; at: string } }
  | { type: 'PostLiked'; data: { memberId: string } }
  | { type: 'PostUnliked'; data: { memberId: string } }
  /** memberId is null for a share from a public page or embed. */
  | { type: 'PostShared'; data: { memberId: string | null } }
  | { type: 'PostReported'; data: { memberId: string; reason?: string; at: string } }
  /** Staff looked at the reports and kept the post: they leave the reports queue, and members may report it again. */
  | { type: 'PostReportsDismissed'; data: { by: string; at: string } }
  | { type: 'PostDeleted'; data: { by: string; at: string } }
  /**
   * The visible text changed at once: a staff edit, or the author's edit of a post not yet in the feed. `resubmitted`:
   * the author edited a rejected post, which goes back to the moderation queue.
   */
  | { type: 'PostEdited'; data: PostText & { by: string; at: string; resubmitted?: true } }
  /** A member's edit of their approved post, held for review while the approved text stays visible; a newer one replaces it. */
  | { type: 'PostRevisionSubmitted'; data: PostText & { by: string; at: string } }
  /** Staff approved the held edit: it becomes the visible text. */
  | { type: 'PostRevisionApproved'; data: { by: string; at: string } }
  | { type: 'PostRevisionRejected'; data: { by: string; reason?: string; at: string } };

export type PostCommand =
  | { type: 'SubmitPost'; data: Omit<NewPost, 'mediaId'> & { id: string; mentions?: string[]; media?: Media }; metadata: CommandMetadata }
  | { type: 'ApprovePost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'RejectPost'; data: { reason?: string }; metadata: CommandMetadata }
  | { type: 'PinPost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'UnpinPost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'LikePost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'UnlikePost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'SharePost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'ReportPost'; data: { reason?: string }; metadata: CommandMetadata }
  | { type: 'DismissPostReports'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'DeletePost'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'EditPost'; data: PostText; metadata: CommandMetadata };

export interface PostState {
  status: PostStatus;
  authorId: string;
  pinned: boolean;
  likedBy: ReadonlySet<string>;
  reportedBy: ReadonlySet<string>;
  /** The visible text. */
  text: PostText | null;
  /** A member's edit held for review (only ever on an approved post). */
  revision: PostText | null;
}

const MODERATORS: readonly Role[] = ['admin', 'staff'];

export function isModerator(role: Role): boolean {
  return MODERATORS.includes(role);
}

/** Who sees a post: everyone once it is in the feed; before (or after a rejection) its author and staff. */
export const canSeePost = (post: { status: PostStatus; authorId: string }, viewer: Actor | null) =>
  post.status === 'approved' || (viewer !== null && (viewer.id === post.authorId || isModerator(viewer.role)));

export const postDecider: Decider<PostState, PostCommand, PostEvent> = {
  initialState: () => ({
    status: 'none',
    authorId: '',
    pinned: false,
    likedBy: new Set(),
    reportedBy: new Set(),
    text: null,
    revision: null,
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'PostSubmitted':
        return { ...state, status: event.data.approved ? 'approved' : 'pending', authorId: event.data.authorId, text: textOf(event.data) };
      case 'PostApproved':
        return { ...state, status: 'approved' };
      case 'PostRejected':
        return { ...state, status: 'rejected', revision: null };
      case 'PostEdited':
        return { ...state, text: textOf(event.data), ...(event.data.resubmitted ? { status: 'pending' as const } : {}) };
      case 'PostRevisionSubmitted':
        return { ...state, revision: textOf(event.data) };
      case 'PostRevisionApproved':
        return { ...state, text: state.revision ?? state.text, revision: null };
      case 'PostRevisionRejected':
        return { ...state, revision: null };
      case 'PostPinned':
        return { ...state, pinned: true };
      case 'PostUnpinned':
        return { ...state, pinned: false };
      case 'PostLiked':
        return { ...state, likedBy: new Set(state.likedBy).add(event.data.memberId) };
      case 'PostUnliked': {
        const likedBy = new Set(state.likedBy);
        likedBy.delete(event.data.memberId);
        return { ...state, likedBy };
      }
      case 'PostShared':
        return state;
      case 'PostReported':
        return { ...state, reportedBy: withReporter(state.reportedBy, event.data.memberId) };
      case 'PostReportsDismissed':
        return { ...state, reportedBy: new Set() };
      case 'PostDeleted':
        return { ...state, status: 'deleted' };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const { actor, now } = command.metadata;
    const at = now.toISOString();
    if (command.type === 'SubmitPost') {
      if (!actor) throw fail.unauthenticated();
      if (state.status !== 'none') throw fail.conflict('This post already exists');
      const { id, content, mediaType, mediaUrl, mediaTitle, tags, mentions, media } = command.data;
      return [
        {
          type: 'PostSubmitted',
          data: {
            id,
            authorId: actor.id,
            authorRole: actor.role,
            content,
            mediaType: media ? media.kind : mediaType,
            mediaUrl: media ? media.url : mediaUrl,
            mediaTitle: media ? null : mediaTitle,
            tags,
            submittedAt: at,
            approved: isModerator(actor.role),
            ...(mentions?.length ? { mentions } : {}),
            ...(media ? { media } : {}),
          },
        },
      ];
    }
    if (state.status === 'none' || state.status === 'deleted') throw fail.notFound('Post not found');
    // A post the actor may not see (another's pending or rejected post) is not found, and nothing is decided on it, so
    // no answer tells what the feed does not show.
    if (!canSeePost(state, actor)) throw fail.notFound('Post not found');
    // Sharing is counted for anonymous readers too (public pages and embeds); everything else needs a member.
    if (command.type === 'SharePost') {
      assertApproved(state, 'shared');
      return [{ type: 'PostShared', data: { memberId: actor?.id ?? null } }];
    }
    if (!actor) throw fail.unauthenticated();

    switch (command.type) {
      case 'ApprovePost':
        assertModerator(actor, 'approve');
        // On a post in the feed, what waits for approval is its author's edit.
        if (state.status === 'approved') return state.revision ? [{ type: 'PostRevisionApproved', data: { by: actor.id, at } }] : [];
        return [{ type: 'PostApproved', data: { by: actor.id, at } }];
      case 'RejectPost': {
        assertModerator(actor, 'reject');
        if (state.status === 'rejected') return [];
        const { reason } = command.data;
        // The moderation queue lists the edit, not the post: rejecting it keeps the approved text in the feed.
        if (state.status === 'approved' && state.revision)
          return [{ type: 'PostRevisionRejected', data: { by: actor.id, ...(reason ? { reason } : {}), at } }];
        // A rejected post leaves the feed, so it must not stay pinned at its top if it is approved again later.
        return [
          ...(state.pinned ? [{ type: 'PostUnpinned' as const, data: { by: actor.id, at } }] : []),
          { type: 'PostRejected', data: { by: actor.id, ...(reason ? { reason } : {}), at } },
        ];
      }
      case 'PinPost':
        assertModerator(actor, 'pin');
        if (state.status !== 'approved') throw fail.rule('Only approved posts can be pinned');
        return state.pinned ? [] : [{ type: 'PostPinned', data: { by: actor.id, at } }];
      case 'UnpinPost':
        assertModerator(actor, 'unpin');
        return state.pinned ? [{ type: 'PostUnpinned', data: { by: actor.id, at } }] : [];
      case 'LikePost':
        assertApproved(state, 'liked');
        return state.likedBy.has(actor.id) ? [] : [{ type: 'PostLiked', data: { memberId: actor.id } }];
      case 'UnlikePost':
        return state.likedBy.has(actor.id) ? [{ type: 'PostUnliked', data: { memberId: actor.id } }] : [];
      case 'ReportPost': {
        assertApproved(state, 'reported');
        const report = reportOf(state, actor, 'post', command.data.reason, at);
        return report ? [{ type: 'PostReported', data: report }] : [];
      }
      case 'DismissPostReports': {
        const dismissal = dismissalOf(state, actor, at);
        return dismissal ? [{ type: 'PostReportsDismissed', data: dismissal }] : [];
      }
      case 'DeletePost':
        if (actor.id !== state.authorId && !isModerator(actor.role)) throw fail.forbidden('Only the author or staff can delete this post');
        return [{ type: 'PostDeleted', data: { by: actor.id, at } }];
      case 'EditPost': {
        const moderator = isModerator(actor.role);
        if (actor.id !== state.authorId && !moderator) throw fail.forbidden('Only the author or staff can edit this post');
        const edit = textOf(command.data);
        const data = { ...edit, by: actor.id, at };
        // Staff edits apply at once; so does an author's edit of a post not in the feed yet, which staff have not read.
        if (moderator || state.status !== 'approved') {
          if (sameText(edit, state.text)) return [];
          return [{ type: 'PostEdited', data: state.status === 'rejected' && !moderator ? { ...data, resubmitted: true } : data }];
        }
        if (sameText(edit, state.revision ?? state.text)) return [];
        return [{ type: 'PostRevisionSubmitted', data }];
      }
      default:
        return assertNever(command);
    }
  },
};

/** The text fields alone, without `media` when there is none. */
function textOf({ content, mediaType, mediaUrl, mediaTitle, tags, media }: PostText): PostText {
  return { content, mediaType, mediaUrl, mediaTitle, tags, ...(media ? { media } : {}) };
}

function sameText(a: PostText, b: PostText | null): boolean {
  return (
    b !== null &&
    a.content === b.content &&
    a.mediaType === b.mediaType &&
    a.mediaUrl === b.mediaUrl &&
    a.mediaTitle === b.mediaTitle &&
    a.media?.id === b.media?.id &&
    a.tags.length === b.tags.length &&
    a.tags.every((tag, index) => tag === b.tags[index])
  );
}

function assertModerator(actor: Actor, action: string) {
  if (!isModerator(actor.role)) throw fail.forbidden(`Only admins and staff can ${action} posts`);
}

function assertApproved(state: PostState, done: string) {
  if (state.status !== 'approved') throw fail.rule(`Only approved posts can be ${done}`);
}
