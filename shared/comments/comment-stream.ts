/**
 * A comment (stream `comment-<id>`) on a feed post or a published blog post: written, edited by its author, removed
 * by its author or staff (the thread keeps a "removed" line), reported. Every event names its target, so the
 * projections that count a target's comments need nothing else.
 *
 * The route has already found the target open to comments and, for a reply, the comment replied to: their facts
 * arrive in the command.
 */
import { type CommandMetadata, type Decider, type Role, assertNever, fail } from '../domain';
import type { CommentTargetType } from './constants';
import { isModerator } from '../feed/post-stream';
import { dismissalOf, reportOf } from '../reports/rules';
import { openReportsAfter } from '../reports/open-reports';
import { signedIn } from '../acting';

type Target = { targetType: CommentTargetType; targetId: string };

export type CommentEvent =
  | {
      type: 'CommentWritten';
      data: Target & {
        id: string;
        parentId: string | null;
        authorId: string;
        authorRole: Role;
        content: string;
        at: string;
        mentions?: string[];
      };
    }
  | { type: 'CommentEdited'; data: Target & { content: string; at: string } }
  | { type: 'CommentRemoved'; data: Target & { by: string; at: string } }
  | { type: 'CommentReported'; data: Target & { memberId: string; reason?: string; at: string } }
  /** Staff looked at the reports and kept the comment: they leave the reports queue, and members may report it again. */
  | { type: 'CommentReportsDismissed'; data: Target & { by: string; at: string } };

/** What the route read of the comment replied to. */
export interface ParentComment extends Target {
  id: string;
  parentId: string | null;
  removed: boolean;
}

export type CommentCommand =
  | {
      type: 'WriteComment';
      data: Target & { id: string; content: string; parent: ParentComment | null; mentions?: string[] };
      metadata: CommandMetadata;
    }
  | { type: 'EditComment'; data: { content: string }; metadata: CommandMetadata }
  | { type: 'RemoveComment'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'ReportComment'; data: { reason?: string }; metadata: CommandMetadata }
  | { type: 'DismissCommentReports'; data: Record<string, never>; metadata: CommandMetadata };

export interface CommentState {
  status: 'none' | 'visible' | 'removed';
  target: Target | null;
  authorId: string;
  content: string;
  reportedBy: ReadonlySet<string>;
}

/** Who may write: everyone but subscribers, who read. */
const WRITERS: readonly Role[] = ['admin', 'staff', 'member'];

export const commentDecider: Decider<CommentState, CommentCommand, CommentEvent> = {
  initialState: () => ({ status: 'none', target: null, authorId: '', content: '', reportedBy: new Set() }),

  evolve(state, event) {
    switch (event.type) {
      case 'CommentWritten': {
        const { targetType, targetId, authorId, content } = event.data;
        return { ...state, status: 'visible', target: { targetType, targetId }, authorId, content };
      }
      case 'CommentEdited':
        return { ...state, content: event.data.content };
      case 'CommentRemoved':
        return { ...state, status: 'removed', content: '' };
      case 'CommentReported':
      case 'CommentReportsDismissed':
        return { ...state, reportedBy: openReportsAfter(state.reportedBy, event.data) };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const { actor, at } = signedIn(command.metadata);
    if (command.type === 'WriteComment') {
      if (!WRITERS.includes(actor.role)) throw fail.forbidden('Subscribers can read comments but not write them');
      if (state.status !== 'none') throw fail.conflict('This comment already exists');
      const { id, targetType, targetId, content, parent, mentions } = command.data;
      if (parent) {
        if (parent.targetType !== targetType || parent.targetId !== targetId) throw fail.rule('That comment belongs to another thread');
        if (parent.parentId) throw fail.rule('Replies go one level deep: reply to the comment above it');
        if (parent.removed) throw fail.rule('You cannot reply to a removed comment');
      }
      return [
        {
          type: 'CommentWritten',
          data: {
            id,
            targetType,
            targetId,
            parentId: parent?.id ?? null,
            authorId: actor.id,
            authorRole: actor.role,
            content,
            at,
            ...(mentions?.length ? { mentions } : {}),
          },
        },
      ];
    }
    if (state.status === 'none' || !state.target) throw fail.notFound('Comment not found');
    const target = state.target;
    switch (command.type) {
      case 'EditComment':
        if (actor.id !== state.authorId) throw fail.forbidden('Only its author can edit this comment');
        if (state.status === 'removed') throw fail.rule('A removed comment cannot be edited');
        return command.data.content === state.content
          ? []
          : [{ type: 'CommentEdited', data: { ...target, content: command.data.content, at } }];
      case 'RemoveComment':
        if (actor.id !== state.authorId && !isModerator(actor.role))
          throw fail.forbidden('Only its author or staff can remove this comment');
        return state.status === 'removed' ? [] : [{ type: 'CommentRemoved', data: { ...target, by: actor.id, at } }];
      case 'ReportComment': {
        if (state.status === 'removed') throw fail.rule('This comment was removed');
        const report = reportOf(state, actor, 'comment', command.data.reason, at);
        return report ? [{ type: 'CommentReported', data: { ...target, ...report } }] : [];
      }
      case 'DismissCommentReports': {
        const dismissal = dismissalOf(state, actor, at);
        return dismissal ? [{ type: 'CommentReportsDismissed', data: { ...target, ...dismissal } }] : [];
      }
      default:
        return assertNever(command);
    }
  },
};
