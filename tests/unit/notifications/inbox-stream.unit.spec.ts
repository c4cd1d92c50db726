import { describe, it } from 'vitest';
import type { Actor } from '../../../shared/domain';
import { inboxDecider, type InboxCommand } from '../../../shared/notifications/inbox-stream';
import { deciderSpec } from '../../support/decider-spec';

const spec = deciderSpec(inboxDecider);
const now = new Date('2026-03-01T10:00:00.000Z');
const member: Actor = { id: 'member-1', role: 'member' };
const mark = (actor: Actor | null, ids: string[] | null, memberId = member.id): InboxCommand => ({
  type: 'MarkNotificationsRead',
  data: { memberId, ids },
  metadata: { now, actor },
});

describe('marking notifications read', () => {
  it('records the ids, or all (null), for the member themselves', () => {
    spec
      .given()
      .when(mark(member, ['a', 'b']))
      .then([{ type: 'NotificationsRead', data: { memberId: member.id, ids: ['a', 'b'], at: now.toISOString() } }]);
    spec
      .given()
      .when(mark(member, null))
      .then([{ type: 'NotificationsRead', data: { memberId: member.id, ids: null, at: now.toISOString() } }]);
  });
  it('records nothing for no ids', () => {
    spec.given().when(mark(member, [])).then([]);
  });
  it('records a reminder sent by the mail worker once per start', () => {
    const remind = (actor: Actor | null, startDate = '2030-01-02T18:00:00.000Z'): InboxCommand => ({
      type: 'RecordEventReminder',
      data: { memberId: member.id, eventId: 'event-1', title: 'Reunion', startDate },
      metadata: { now, actor },
    });
    const sent = {
      type: 'EventReminderSent' as const,
      data: { memberId: member.id, eventId: 'event-1', title: 'Reunion', startDate: '2030-01-02T18:00:00.000Z', at: now.toISOString() },
    };
    spec.given().when(remind(null)).then([sent]);
    spec.given([sent]).when(remind(null)).then([]);
    spec
      .given([sent])
      .when(remind(null, '2030-01-03T18:00:00.000Z'))
      .then([{ ...sent, data: { ...sent.data, startDate: '2030-01-03T18:00:00.000Z' } }]);
    spec.given().when(remind(member)).thenThrows('forbidden', 'Only the mail worker records reminders');
  });
  it('is refused for someone else’s inbox, and to nobody', () => {
    spec
      .given()
      .when(mark({ id: 'staff-1', role: 'staff' }, null))
      .thenThrows('forbidden', 'You can only read your own notifications');
    spec.given().when(mark(null, null)).thenThrows('unauthenticated');
  });
});
