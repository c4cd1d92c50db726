/**
 * A member's inbox (stream `inbox-<memberId>`): the notifications they marked read. The notifications themselves
 * are not commands: the notifications projection derives them from what happened (docs/domain/notifications.md).
 * "All" means every notification made before the mark, so a replay marks exactly the same ones.
 */
import { type CommandMetadata, type Decider, fail } from '../domain';

export type InboxEvent = { type: 'NotificationsRead'; data: { memberId: string; ids: string[] | null; at: string } };
export type InboxCommand = { type: 'MarkNotificationsRead'; data: { memberId: string; ids: string[] | null }; metadata: CommandMetadata };

export const inboxDecider: Decider<Record<string, never>, InboxCommand, InboxEvent> = {
  initialState: () => ({}),
  evolve: (state) => state,
  decide(command) {
    const { actor, now } = command.metadata;
    if (!actor) throw fail.unauthenticated();
    const { memberId, ids } = command.data;
    if (actor.id !== memberId) throw fail.forbidden('You can only read your own notifications');
    if (ids?.length === 0) return [];
    return [{ type: 'NotificationsRead', data: { memberId, ids, at: now.toISOString() } }];
  },
};
