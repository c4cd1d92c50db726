/**
 * A discussion topic (stream `topic-<id>`): its title, opening post, tags and category; pinned, locked or moved by
 * staff; edited by its author; reported, and removed by staff from the reports queue. Replies are streams of their own
 * (reply-stream.ts), so that each is sealed with its own author's key and a busy topic is not one hot stream.
 *
 * The route has found the category (open) and resolved the mentions: they arrive in the command.
 */
import { type CommandMetadata, type Decider, type Role, assertNever, fail } from '../domain';
import { editRefusal, isDiscussionStaff, writingRefusal } from './rules';
import { dismissalOf, reportOf } from '../reports/rules';
import { openReportsAfter } from '../reports/open-reports';
import { signedIn } from '../acting';

export type TopicText = { title: string; content: string; tags: string[] };

export type TopicEvent =
  | {
      type: 'TopicStarted';
      data: TopicText & { id: string; categoryId: string; authorId: string; authorRole: Role; at: string; mentions?: string[] };
    }
  /** The whole text as it now is (the sealed fields are always all there). */
  | { type: 'TopicEdited'; data: TopicText & { by: string; at: string } }
  | { type: 'TopicPinned'; data: { pinned: boolean; by: string; at: string } }
  | { type: 'TopicLocked'; data: { locked: boolean; by: string; at: string } }
  | { type: 'TopicMoved'; data: { from: string; categoryId: string; by: string; at: string } }
  | { type: 'TopicReported'; data: { memberId: string; reason?: string; at: string } }
  | { type: 'TopicReportsDismissed'; data: { by: string; at: string } }
  | { type: 'TopicRemoved'; data: { categoryId: string; by: string; at: string } };

export type TopicModeration = { pinned?: boolean | undefined; locked?: boolean | undefined; categoryId?: string | undefined };

export type TopicCommand =
  | {
      type: 'StartTopic';
      data: TopicText & { id: string; categoryId: string; mentions?: string[] };
      metadata: CommandMetadata;
    }
  | { type: 'EditTopic'; data: Partial<TopicText>; metadata: CommandMetadata }
  /** `categoryId`, when given, names an open category the route found. */
  | { type: 'ModerateTopic'; data: TopicModeration; metadata: CommandMetadata }
  | { type: 'ReportTopic'; data: { reason?: string | undefined }; metadata: CommandMetadata }
  | { type: 'DismissTopicReports'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'RemoveTopic'; data: Record<string, never>; metadata: CommandMetadata };

export interface TopicState {
  status: 'none' | 'open' | 'removed';
  authorId: string;
  categoryId: string;
  text: TopicText | null;
  pinned: boolean;
  locked: boolean;
  reportedBy: ReadonlySet<string>;
}

export const topicDecider: Decider<TopicState, TopicCommand, TopicEvent> = {
  initialState: () => ({
    status: 'none',
    authorId: '',
    categoryId: '',
    text: null,
    pinned: false,
    locked: false,
    reportedBy: new Set(),
  }),
  evolve(state, event) {
    switch (event.type) {
      case 'TopicStarted': {
        const { title, content, tags, authorId, categoryId } = event.data;
        return { ...state, status: 'open', authorId, categoryId, text: { title, content, tags } };
      }
      case 'TopicEdited': {
        const { title, content, tags } = event.data;
        return { ...state, text: { title, content, tags } };
      }
      case 'TopicPinned':
        return { ...state, pinned: event.data.pinned };
      case 'TopicLocked':
        return { ...state, locked: event.data.locked };
      case 'TopicMoved':
        return { ...state, categoryId: event.data.categoryId };
      case 'TopicReported':
      case 'TopicReportsDismissed':
        return { ...state, reportedBy: openReportsAfter(state.reportedBy, event.data) };
      case 'TopicRemoved':
        return { ...state, status: 'removed' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    const { actor, at } = signedIn(command.metadata);
    if (command.type === 'StartTopic') {
      const refusal = writingRefusal(actor);
      if (refusal) throw refusal;
      if (state.status !== 'none') throw fail.conflict('This topic already exists');
      const { mentions, ...data } = command.data;
      return [
        {
          type: 'TopicStarted',
          data: { ...data, authorId: actor.id, authorRole: actor.role, at, ...(mentions?.length ? { mentions } : {}) },
        },
      ];
    }
    if (state.status !== 'open' || !state.text) throw fail.notFound('Topic not found');
    const staff = isDiscussionStaff(actor.role);
    switch (command.type) {
      case 'EditTopic': {
        const refusal = editRefusal(actor, state.authorId);
        if (refusal) throw refusal;
        const next = { ...state.text, ...Object.fromEntries(Object.entries(command.data).filter(([, value]) => value !== undefined)) };
        const same =
          next.title === state.text.title && next.content === state.text.content && next.tags.join('\n') === state.text.tags.join('\n');
        return same ? [] : [{ type: 'TopicEdited', data: { ...next, by: actor.id, at } }];
      }
      case 'ModerateTopic': {
        if (!staff) throw fail.forbidden('Only admins and staff pin, lock or move topics');
        const { pinned, locked, categoryId } = command.data;
        const by = actor.id;
        const events: TopicEvent[] = [];
        if (pinned !== undefined && pinned !== state.pinned) events.push({ type: 'TopicPinned', data: { pinned, by, at } });
        if (locked !== undefined && locked !== state.locked) events.push({ type: 'TopicLocked', data: { locked, by, at } });
        if (categoryId !== undefined && categoryId !== state.categoryId)
          events.push({ type: 'TopicMoved', data: { from: state.categoryId, categoryId, by, at } });
        return events;
      }
      case 'ReportTopic': {
        const report = reportOf(state, actor, 'topic', command.data.reason, at);
        return report ? [{ type: 'TopicReported', data: report }] : [];
      }
      case 'DismissTopicReports': {
        const dismissal = dismissalOf(state, actor, at);
        return dismissal ? [{ type: 'TopicReportsDismissed', data: dismissal }] : [];
      }
      case 'RemoveTopic':
        if (!staff) throw fail.forbidden('Only admins and staff can remove a topic');
        return [{ type: 'TopicRemoved', data: { categoryId: state.categoryId, by: actor.id, at } }];
      default:
        return assertNever(command);
    }
  },
};
