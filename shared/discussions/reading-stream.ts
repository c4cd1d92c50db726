/**
 * One member's place in one topic (stream `reading-<topicId>:<memberId>`): how far they have read (by the reply's
 * number in the topic, which the projection gives each reply in order) and how closely they watch it. Only forward:
 * reading an earlier reply again moves nothing, so the stream grows by one event per reply read at most.
 * Starting or replying to a topic watches it; the projections (and the mail runner) read that from TopicStarted and
 * ReplyPosted, so it needs no event here.
 */
import { type CommandMetadata, type Decider, assertNever, fail } from '../domain';
import type { WatchLevel } from './constants';

export type ReadingEvent =
  | { type: 'TopicReadUpTo'; data: { topicId: string; memberId: string; replyId: string; number: number; at: string } }
  | { type: 'TopicWatchChanged'; data: { topicId: string; memberId: string; level: WatchLevel; at: string } };

export type ReadingCommand =
  | { type: 'ReadTopicUpTo'; data: { topicId: string; memberId: string; replyId: string; number: number }; metadata: CommandMetadata }
  | { type: 'WatchTopic'; data: { topicId: string; memberId: string; level: WatchLevel }; metadata: CommandMetadata };

export interface ReadingState {
  readUpTo: number | null;
  level: WatchLevel | null;
}

export const readingStreamId = (topicId: string, memberId: string) => `${topicId}:${memberId}`;

export const readingDecider: Decider<ReadingState, ReadingCommand, ReadingEvent> = {
  initialState: () => ({ readUpTo: null, level: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'TopicReadUpTo':
        return { ...state, readUpTo: event.data.number };
      case 'TopicWatchChanged':
        return { ...state, level: event.data.level };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    const { actor, now } = command.metadata;
    if (!actor) throw fail.unauthenticated();
    if (actor.id !== command.data.memberId) throw fail.forbidden('You can only keep your own place');
    const at = now.toISOString();
    switch (command.type) {
      case 'ReadTopicUpTo':
        return state.readUpTo !== null && command.data.number <= state.readUpTo
          ? []
          : [{ type: 'TopicReadUpTo', data: { ...command.data, at } }];
      case 'WatchTopic':
        return state.level === command.data.level ? [] : [{ type: 'TopicWatchChanged', data: { ...command.data, at } }];
      default:
        return assertNever(command);
    }
  },
};
