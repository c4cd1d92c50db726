/**
 * A reply in a topic (stream `reply-<id>`): posted (perhaps quoting another reply, `replyTo`), edited by its author
 * (the projection keeps each earlier text: the edit history), deleted by its author or staff (the topic keeps a
 * "deleted" line), reported. Every event names its topic, so the projections need nothing else.
 *
 * The route (or the inbound mail) has found the topic and the reply quoted: their facts arrive in the command, so the
 * decider sees whether the topic is locked.
 */
import { type CommandMetadata, type Decider, type Role, assertNever, fail } from '../domain';
import { deleteRefusal, editRefusal, lockedRefusal, writingRefusal } from './rules';
import { dismissalOf, reportOf } from '../reports/rules';
import { openReportsAfter } from '../reports/open-reports';
import { signedIn } from '../acting';

export type ReplyEvent =
  | {
      type: 'ReplyPosted';
      data: {
        id: string;
        topicId: string;
        /** The reply this one answers or quotes (in the same topic), or null. */
        replyTo: string | null;
        authorId: string;
        authorRole: Role;
        content: string;
        at: string;
        /** Members named with `@First Last`, resolved by the route. */
        mentions?: string[];
        /** How it came: typed on the site, or mailed in reply to a watcher's mail. */
        via?: 'web' | 'email';
      };
    }
  | { type: 'ReplyEdited'; data: { topicId: string; content: string; at: string } }
  | { type: 'ReplyDeleted'; data: { topicId: string; by: string; at: string } }
  | { type: 'ReplyReported'; data: { topicId: string; memberId: string; reason?: string; at: string } }
  | { type: 'ReplyReportsDismissed'; data: { topicId: string; by: string; at: string } };

/** What the route read of the topic replied in. */
export interface RepliedTopic {
  id: string;
  locked: boolean;
}
/** What the route read of the reply quoted. */
export interface QuotedReply {
  id: string;
  topicId: string;
  deleted: boolean;
}

export type ReplyCommand =
  | {
      type: 'PostReply';
      data: {
        id: string;
        topic: RepliedTopic;
        replyTo: QuotedReply | null;
        content: string;
        mentions?: string[];
        via?: 'web' | 'email';
      };
      metadata: CommandMetadata;
    }
  | { type: 'EditReply'; data: { content: string }; metadata: CommandMetadata }
  | { type: 'DeleteReply'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'ReportReply'; data: { reason?: string | undefined }; metadata: CommandMetadata }
  | { type: 'DismissReplyReports'; data: Record<string, never>; metadata: CommandMetadata };

export interface ReplyState {
  status: 'none' | 'visible' | 'deleted';
  topicId: string;
  authorId: string;
  content: string;
  reportedBy: ReadonlySet<string>;
}

export const replyDecider: Decider<ReplyState, ReplyCommand, ReplyEvent> = {
  initialState: () => ({ status: 'none', topicId: '', authorId: '', content: '', reportedBy: new Set() }),
  evolve(state, event) {
    switch (event.type) {
      case 'ReplyPosted': {
        const { topicId, authorId, content } = event.data;
        return { ...state, status: 'visible', topicId, authorId, content };
      }
      case 'ReplyEdited':
        return { ...state, content: event.data.content };
      case 'ReplyDeleted':
        return { ...state, status: 'deleted', content: '' };
      case 'ReplyReported':
      case 'ReplyReportsDismissed':
        return { ...state, reportedBy: openReportsAfter(state.reportedBy, event.data) };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    const { actor, at } = signedIn(command.metadata);
    if (command.type === 'PostReply') {
      const refusal = writingRefusal(actor) ?? lockedRefusal(command.data.topic.locked);
      if (refusal) throw refusal;
      if (state.status !== 'none') throw fail.conflict('This reply already exists');
      const { id, topic, replyTo, content, mentions, via } = command.data;
      if (replyTo) {
        if (replyTo.topicId !== topic.id) throw fail.rule('That reply belongs to another topic');
        if (replyTo.deleted) throw fail.rule('You cannot reply to a deleted reply');
      }
      return [
        {
          type: 'ReplyPosted',
          data: {
            id,
            topicId: topic.id,
            replyTo: replyTo?.id ?? null,
            authorId: actor.id,
            authorRole: actor.role,
            content,
            at,
            ...(mentions?.length ? { mentions } : {}),
            ...(via === 'email' ? { via } : {}),
          },
        },
      ];
    }
    if (state.status === 'none') throw fail.notFound('Reply not found');
    const topicId = state.topicId;
    switch (command.type) {
      case 'EditReply': {
        const refusal = editRefusal(actor, state.authorId);
        if (refusal) throw refusal;
        if (state.status === 'deleted') throw fail.rule('A deleted reply cannot be edited');
        return command.data.content === state.content
          ? []
          : [{ type: 'ReplyEdited', data: { topicId, content: command.data.content, at } }];
      }
      case 'DeleteReply': {
        const refusal = deleteRefusal(actor, state.authorId);
        if (refusal) throw refusal;
        return state.status === 'deleted' ? [] : [{ type: 'ReplyDeleted', data: { topicId, by: actor.id, at } }];
      }
      case 'ReportReply': {
        if (state.status === 'deleted') throw fail.rule('This reply was deleted');
        const report = reportOf(state, actor, 'reply', command.data.reason, at);
        return report ? [{ type: 'ReplyReported', data: { topicId, ...report } }] : [];
      }
      case 'DismissReplyReports': {
        const dismissal = dismissalOf(state, actor, at);
        return dismissal ? [{ type: 'ReplyReportsDismissed', data: { topicId, ...dismissal } }] : [];
      }
      default:
        return assertNever(command);
    }
  },
};
