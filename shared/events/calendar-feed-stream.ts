/**
 * A member's own calendar (stream `calendar-<memberId>`): their private calendar feed, the iCalendar URL of the
 * events they attend, organise or wait for, and whether they are reminded of events by e-mail.
 *
 * The feed's token is derived from a server secret and the feed's generation (see server/events/routes.ts); the log
 * holds only the token's SHA-256. Resetting issues the next generation, and the old URL stops answering.
 */
import { type CommandMetadata, type Decider, fail } from '../domain';

export type CalendarFeedEvent =
  | { type: 'CalendarFeedIssued'; data: { memberId: string; generation: number; tokenHash: string; at: string } }
  | { type: 'EventRemindersSet'; data: { memberId: string; enabled: boolean; at: string } };

export type CalendarFeedCommand =
  | { type: 'IssueCalendarFeed'; data: { memberId: string; generation: number; tokenHash: string }; metadata: CommandMetadata }
  | { type: 'SetEventReminders'; data: { memberId: string; enabled: boolean }; metadata: CommandMetadata };

export interface CalendarFeedState {
  /** 0 before the first URL was issued. */
  generation: number;
  /** Reminders are on until the member turns them off. */
  reminders: boolean;
}

export const calendarFeedDecider: Decider<CalendarFeedState, CalendarFeedCommand, CalendarFeedEvent> = {
  initialState: () => ({ generation: 0, reminders: true }),
  evolve: (state, event) =>
    event.type === 'CalendarFeedIssued' ? { ...state, generation: event.data.generation } : { ...state, reminders: event.data.enabled },
  decide(command, state) {
    const { actor, now } = command.metadata;
    if (!actor) throw fail.unauthenticated();
    const { memberId } = command.data;
    if (actor.id !== memberId) throw fail.forbidden('You can only manage your own calendar');
    const at = now.toISOString();
    if (command.type === 'SetEventReminders')
      return command.data.enabled === state.reminders
        ? []
        : [{ type: 'EventRemindersSet', data: { memberId, enabled: command.data.enabled, at } }];
    const { generation, tokenHash } = command.data;
    // The caller derived the token from the generation it read: a concurrent reset got there first.
    if (generation !== state.generation + 1) throw fail.conflict('Your calendar link changed at the same moment. Please try again.');
    return [{ type: 'CalendarFeedIssued', data: { memberId, generation, tokenHash, at } }];
  },
};
