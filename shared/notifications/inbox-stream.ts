/**
 * A member's inbox (stream `inbox-<memberId>`): the notifications they marked read, and the event reminders the
 * mail worker sent them (so they are told in the site too). Other notifications are not commands: the notifications
 * projection derives them from what happened (docs/domain/notifications.md). "All" means every notification made
 * before the mark, so a replay marks exactly the same ones.
 */
import { type CommandMetadata, type Decider, fail } from '../domain';

export type InboxEvent =
  | { type: 'NotificationsRead'; data: { memberId: string; ids: string[] | null; at: string } }
  | { type: 'EventReminderSent'; data: { memberId: string; eventId: string; title: string; startDate: string; at: string } };

export type InboxCommand =
  | { type: 'MarkNotificationsRead'; data: { memberId: string; ids: string[] | null }; metadata: CommandMetadata }
  /** By the mail worker (no actor), once the reminder mail went out. */
  | {
      type: 'RecordEventReminder';
      data: { memberId: string; eventId: string; title: string; startDate: string };
      metadata: CommandMetadata;
    };

export interface InboxState {
  /** `<eventId> <startDate>` of each reminder recorded: a start is reminded of once. */
  reminded: ReadonlySet<string>;
}

const reminderKey = ({ eventId, startDate }: { eventId: string; startDate: string }) => `${eventId} ${startDate}`;

export const inboxDecider: Decider<InboxState, InboxCommand, InboxEvent> = {
  initialState: () => ({ reminded: new Set() }),
  evolve: (state, event) =>
    event.type === 'EventReminderSent' ? { reminded: new Set(state.reminded).add(reminderKey(event.data)) } : state,
  decide(command, state) {
    const { actor, now } = command.metadata;
    const at = now.toISOString();
    if (command.type === 'RecordEventReminder') {
      if (actor) throw fail.forbidden('Only the mail worker records reminders');
      return state.reminded.has(reminderKey(command.data)) ? [] : [{ type: 'EventReminderSent', data: { ...command.data, at } }];
    }
    if (!actor) throw fail.unauthenticated();
    const { memberId, ids } = command.data;
    if (actor.id !== memberId) throw fail.forbidden('You can only read your own notifications');
    if (ids?.length === 0) return [];
    return [{ type: 'NotificationsRead', data: { memberId, ids, at } }];
  },
};
