import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { given } from '../../support/decider-spec';
import { calendarEventDecider, type CalendarEventEvent } from '../../../shared/events/event-stream';
import { EventSchema, type EventFields } from '../../../shared/events/schemas';
import type { Actor } from '../../../shared/domain';

const now = new Date('2026-06-01T12:00:00Z');
const at = now.toISOString();
const admin: Actor = { id: 'admin-1', role: 'admin' };
const staff: Actor = { id: 'staff-1', role: 'staff' };
const organizer: Actor = { id: 'member-1', role: 'member' };
const member: Actor = { id: 'member-2', role: 'member' };
const subscriber: Actor = { id: 'sub-1', role: 'subscriber' };
const meta = (actor: Actor) => ({ now, actor });

const fields = (overrides: Partial<EventFields> = {}): EventFields => ({
  ...v.parse(EventSchema, { title: 'WGN reunion', startDate: '2026-07-04T18:00:00Z', endDate: '2026-07-04T21:00:00Z' }),
  ...overrides,
});
const scheduled = (overrides: Partial<EventFields> = {}, approved = true): CalendarEventEvent => ({
  type: 'EventScheduled',
  data: { id: 'e1', organizerId: organizer.id, fields: fields(overrides), approved, scheduledAt: at },
});
const rsvp = (
  memberId: string,
  status: 'attending' | 'maybe' | 'not_attending',
  previous: 'attending' | 'maybe' | 'not_attending' | null = null,
): CalendarEventEvent => ({
  type: 'RsvpChanged',
  data: { memberId, status, previous, at },
});

describe('scheduling', () => {
  it('approves staff events at once and keeps members’ events pending', () => {
    given(calendarEventDecider)
      .when({ type: 'ScheduleEvent', data: { id: 'e1', fields: fields() }, metadata: meta(staff) })
      .then([{ type: 'EventScheduled', data: { id: 'e1', organizerId: staff.id, fields: fields(), approved: true, scheduledAt: at } }]);
    given(calendarEventDecider)
      .when({ type: 'ScheduleEvent', data: { id: 'e1', fields: fields() }, metadata: meta(organizer) })
      .then([
        { type: 'EventScheduled', data: { id: 'e1', organizerId: organizer.id, fields: fields(), approved: false, scheduledAt: at } },
      ]);
  });
  it('never schedules the same event twice', () => {
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'ScheduleEvent', data: { id: 'e1', fields: fields() }, metadata: meta(staff) })
      .thenThrows('conflict');
  });
  it('refuses subscribers and anonymous callers', () => {
    given(calendarEventDecider)
      .when({ type: 'ScheduleEvent', data: { id: 'e1', fields: fields() }, metadata: meta(subscriber) })
      .thenThrows('forbidden');
    given(calendarEventDecider)
      .when({ type: 'ScheduleEvent', data: { id: 'e1', fields: fields() }, metadata: { now, actor: null } })
      .thenThrows('unauthenticated');
  });
});

describe('editing and moderation', () => {
  it('lets the organizer, staff and admins edit, and nobody else', () => {
    const edited = fields({ title: 'Renamed' });
    given(calendarEventDecider, [scheduled({}, false)])
      .when({ type: 'EditEvent', data: { fields: edited }, metadata: meta(organizer) })
      .then([{ type: 'EventEdited', data: { fields: edited, by: organizer.id, at } }]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'EditEvent', data: { fields: edited }, metadata: meta(admin) })
      .then([{ type: 'EventEdited', data: { fields: edited, by: admin.id, at } }]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'EditEvent', data: { fields: edited }, metadata: meta(member) })
      .thenThrows('forbidden');
  });
  it('holds a member’s edit of an approved event for staff; approving applies it as the author’s edit; staff edits apply at once', () => {
    const edited = fields({ title: 'Renamed' });
    const submitted = { type: 'EventRevisionSubmitted', data: { fields: edited, by: organizer.id, at } } as CalendarEventEvent;
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'EditEvent', data: { fields: edited }, metadata: meta(organizer) })
      .then([submitted]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'EditEvent', data: { fields: edited }, metadata: meta(staff) })
      .then([{ type: 'EventEdited', data: { fields: edited, by: staff.id, at } }]);
    given(calendarEventDecider, [scheduled(), submitted])
      .when({ type: 'ApproveEvent', data: {}, metadata: meta(staff) })
      .then([
        { type: 'EventRevisionApproved', data: { by: staff.id, at } },
        { type: 'EventEdited', data: { fields: edited, by: organizer.id, at } },
      ]);
    given(calendarEventDecider, [scheduled(), submitted])
      .when({ type: 'RejectEvent', data: { reason: 'No' }, metadata: meta(staff) })
      .then([{ type: 'EventRevisionRejected', data: { by: staff.id, reason: 'No', at } }]);
    // The attendees' event stays open to RSVPs while the edit waits.
    given(calendarEventDecider, [scheduled(), submitted])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .then([{ type: 'RsvpChanged', data: { memberId: member.id, status: 'attending', previous: null, at } }]);
    // Logs from before revisions: an edit sent back to the queue takes no RSVPs until staff approve it again.
    given(calendarEventDecider, [
      scheduled(),
      { type: 'EventEdited', data: { fields: edited, by: organizer.id, at } },
      { type: 'EventReturnedToModeration', data: { by: organizer.id, at } },
    ] as CalendarEventEvent[])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .thenThrows('rule', /waiting for approval/);
  });
  it('refuses lowering max attendees below those attending', () => {
    given(calendarEventDecider, [scheduled({ maxAttendees: 5 }), rsvp('a', 'attending'), rsvp('b', 'attending')])
      .when({ type: 'EditEvent', data: { fields: fields({ maxAttendees: 1 }) }, metadata: meta(organizer) })
      .thenThrows('rule', /already attending/);
  });
  it('lets only staff approve, reject, feature and delete; repeats are no-ops', () => {
    given(calendarEventDecider, [scheduled({}, false)])
      .when({ type: 'ApproveEvent', data: {}, metadata: meta(staff) })
      .then([{ type: 'EventApproved', data: { by: staff.id, at } }]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'ApproveEvent', data: {}, metadata: meta(staff) })
      .then([]);
    given(calendarEventDecider, [scheduled({}, false)])
      .when({ type: 'ApproveEvent', data: {}, metadata: meta(organizer) })
      .thenThrows('forbidden');
    given(calendarEventDecider, [scheduled({}, false)])
      .when({ type: 'RejectEvent', data: {}, metadata: meta(admin) })
      .then([{ type: 'EventRejected', data: { by: admin.id, at } }]);
    // A reason, when given, goes with the rejection for its organizer.
    given(calendarEventDecider, [scheduled({}, false)])
      .when({ type: 'RejectEvent', data: { reason: 'Add the hall’s address' }, metadata: meta(staff) })
      .then([{ type: 'EventRejected', data: { by: staff.id, at, reason: 'Add the hall’s address' } }]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'FeatureEvent', data: {}, metadata: meta(staff) })
      .then([{ type: 'EventFeatured', data: { by: staff.id, at } }]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'UnfeatureEvent', data: {}, metadata: meta(staff) })
      .then([]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'DeleteEvent', data: {}, metadata: meta(member) })
      .thenThrows('forbidden');
    given(calendarEventDecider, [scheduled(), { type: 'EventDeleted', data: { by: staff.id, at } }] as CalendarEventEvent[])
      .when({ type: 'FeatureEvent', data: {}, metadata: meta(staff) })
      .thenThrows('not_found');
    given(calendarEventDecider, [scheduled({}, false), { type: 'EventRejected', data: { by: staff.id, at } }] as CalendarEventEvent[])
      .when({ type: 'RejectEvent', data: {}, metadata: meta(staff) })
      .then([]);
    given(calendarEventDecider, [scheduled({}, false), { type: 'EventRejected', data: { by: staff.id, at } }] as CalendarEventEvent[])
      .when({ type: 'ApproveEvent', data: {}, metadata: meta(admin) })
      .then([{ type: 'EventApproved', data: { by: admin.id, at } }]);
    given(calendarEventDecider, [scheduled(), { type: 'EventFeatured', data: { by: staff.id, at } }] as CalendarEventEvent[])
      .when({ type: 'UnfeatureEvent', data: {}, metadata: meta(admin) })
      .then([{ type: 'EventUnfeatured', data: { by: admin.id, at } }]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'FeatureEvent', data: {}, metadata: meta(subscriber) })
      .thenThrows('forbidden');
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'DeleteEvent', data: {}, metadata: meta(organizer) })
      .thenThrows('forbidden');
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'DeleteEvent', data: {}, metadata: meta(staff) })
      .then([{ type: 'EventDeleted', data: { by: staff.id, at } }]);
  });
  it('never rejects an approved event: it is cancelled instead, so its attendees are told', () => {
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'RejectEvent', data: {}, metadata: meta(staff) })
      .thenThrows('conflict', /cancel it instead/);
    // Back in moderation after a member's edit: staff may turn the edit down.
    given(calendarEventDecider, [
      scheduled(),
      { type: 'EventReturnedToModeration', data: { by: organizer.id, at } },
    ] as CalendarEventEvent[])
      .when({ type: 'RejectEvent', data: {}, metadata: meta(staff) })
      .then([{ type: 'EventRejected', data: { by: staff.id, at } }]);
  });
});

describe('cancellation', () => {
  const cancelled = (by: string): CalendarEventEvent => ({ type: 'EventCancelled', data: { by, at } });
  it('lets the organizer and staff cancel, once, and then takes no RSVPs or edits', () => {
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'CancelEvent', data: {}, metadata: meta(organizer) })
      .then([cancelled(organizer.id)]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'CancelEvent', data: {}, metadata: meta(staff) })
      .then([cancelled(staff.id)]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'CancelEvent', data: {}, metadata: meta(member) })
      .thenThrows('forbidden');
    given(calendarEventDecider, [scheduled(), cancelled(staff.id)])
      .when({ type: 'CancelEvent', data: {}, metadata: meta(staff) })
      .then([]);
    given(calendarEventDecider, [scheduled(), cancelled(staff.id)])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .thenThrows('rule', /cancelled/);
    given(calendarEventDecider, [scheduled(), cancelled(staff.id)])
      .when({ type: 'EditEvent', data: { fields: fields() }, metadata: meta(organizer) })
      .thenThrows('rule', /cancelled/);
  });
  it('cancels instead of deleting an event someone attends or waits for; a second delete removes it', () => {
    given(calendarEventDecider, [scheduled(), rsvp(member.id, 'attending')])
      .when({ type: 'DeleteEvent', data: {}, metadata: meta(staff) })
      .then([cancelled(staff.id)]);
    given(calendarEventDecider, [scheduled(), rsvp(member.id, 'maybe')])
      .when({ type: 'DeleteEvent', data: {}, metadata: meta(staff) })
      .then([{ type: 'EventDeleted', data: { by: staff.id, at } }]);
    given(calendarEventDecider, [scheduled(), rsvp(member.id, 'attending'), cancelled(staff.id)])
      .when({ type: 'DeleteEvent', data: {}, metadata: meta(staff) })
      .then([{ type: 'EventDeleted', data: { by: staff.id, at } }]);
  });
  it('promotes nobody from the line of a cancelled event', () => {
    const line: CalendarEventEvent[] = [
      scheduled({ maxAttendees: 1 }),
      rsvp('a', 'attending'),
      { type: 'JoinedWaitlist', data: { memberId: 'b', previous: null, at } },
      cancelled(staff.id),
    ];
    given(calendarEventDecider, line)
      .when({ type: 'RemoveRsvp', data: {}, metadata: meta({ id: 'a', role: 'member' }) })
      .then([{ type: 'RsvpRemoved', data: { memberId: 'a', previous: 'attending', at } }]);
  });
});

describe('RSVP', () => {
  it('records and changes a member’s answer, once per change', () => {
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'SetRsvp', data: { status: 'maybe' }, metadata: meta(member) })
      .then([rsvp(member.id, 'maybe')]);
    given(calendarEventDecider, [scheduled(), rsvp(member.id, 'maybe')])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .then([rsvp(member.id, 'attending', 'maybe')]);
    given(calendarEventDecider, [scheduled(), rsvp(member.id, 'maybe')])
      .when({ type: 'SetRsvp', data: { status: 'maybe' }, metadata: meta(member) })
      .then([]);
    given(calendarEventDecider, [scheduled(), rsvp(member.id, 'maybe')])
      .when({ type: 'RemoveRsvp', data: {}, metadata: meta(member) })
      .then([{ type: 'RsvpRemoved', data: { memberId: member.id, previous: 'maybe', at } }]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'RemoveRsvp', data: {}, metadata: meta(member) })
      .then([]);
  });
  it('never seats more than max attendees, but lets someone attending stay', () => {
    const full: CalendarEventEvent[] = [scheduled({ maxAttendees: 2, waitlist: false }), rsvp('a', 'attending'), rsvp('b', 'attending')];
    given(calendarEventDecider, full)
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .thenThrows('conflict', 'Event is at capacity');
    given(calendarEventDecider, full)
      .when({ type: 'SetRsvp', data: { status: 'maybe' }, metadata: meta(member) })
      .then([rsvp(member.id, 'maybe')]);
    given(calendarEventDecider, [scheduled({ maxAttendees: 2 }), rsvp('a', 'attending'), rsvp(member.id, 'attending')])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .then([]);
    given(calendarEventDecider, [...full, rsvp('a', 'not_attending', 'attending')])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .then([rsvp(member.id, 'attending')]);
  });
  it('puts a member in line for a full event, and gives the first in line a place as soon as one frees', () => {
    const full: CalendarEventEvent[] = [scheduled({ maxAttendees: 1 }), rsvp('a', 'attending')];
    const joined = (memberId: string, previous: 'maybe' | null = null): CalendarEventEvent => ({
      type: 'JoinedWaitlist',
      data: { memberId, previous, at },
    });
    const promoted = (memberId: string): CalendarEventEvent => ({ type: 'PromotedFromWaitlist', data: { memberId, at } });
    given(calendarEventDecider, [...full, rsvp(member.id, 'maybe')])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .then([joined(member.id, 'maybe')]);
    const line = [...full, joined('b'), joined('c')];
    // Already in line: asking again changes nothing.
    given(calendarEventDecider, line)
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta({ id: 'b', role: 'member' }) })
      .then([]);
    // A place frees: b, first in line, gets it in the same append.
    given(calendarEventDecider, line)
      .when({ type: 'RemoveRsvp', data: {}, metadata: meta({ id: 'a', role: 'member' }) })
      .then([{ type: 'RsvpRemoved', data: { memberId: 'a', previous: 'attending', at } }, promoted('b')]);
    given(calendarEventDecider, line)
      .when({ type: 'SetRsvp', data: { status: 'maybe' }, metadata: meta({ id: 'a', role: 'member' }) })
      .then([rsvp('a', 'maybe', 'attending'), promoted('b')]);
    // Leaving the line frees no place.
    given(calendarEventDecider, line)
      .when({ type: 'SetRsvp', data: { status: 'not_attending' }, metadata: meta({ id: 'b', role: 'member' }) })
      .then([{ type: 'LeftWaitlist', data: { memberId: 'b', at } }, rsvp('b', 'not_attending')]);
    given(calendarEventDecider, line)
      .when({ type: 'RemoveRsvp', data: {}, metadata: meta({ id: 'c', role: 'member' }) })
      .then([{ type: 'LeftWaitlist', data: { memberId: 'c', at } }]);
    // A raised limit seats as many as it adds; a lifted one seats everyone.
    given(calendarEventDecider, line)
      .when({ type: 'EditEvent', data: { fields: fields({ maxAttendees: 2 }) }, metadata: meta(staff) })
      .then([{ type: 'EventEdited', data: { fields: fields({ maxAttendees: 2 }), by: staff.id, at } }, promoted('b')]);
    given(calendarEventDecider, line)
      .when({ type: 'EditEvent', data: { fields: fields({ maxAttendees: null }) }, metadata: meta(staff) })
      .then([{ type: 'EventEdited', data: { fields: fields({ maxAttendees: null }), by: staff.id, at } }, promoted('b'), promoted('c')]);
  });
  it('refuses past, unapproved and private events, and subscribers', () => {
    given(calendarEventDecider, [scheduled({ startDate: '2026-05-01T10:00:00.000Z', endDate: '2026-05-01T11:00:00.000Z' })])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .thenThrows('rule', 'RSVP is no longer available for past events');
    given(calendarEventDecider, [scheduled({}, false)])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .thenThrows('rule', /waiting for approval/);
    given(calendarEventDecider, [scheduled({ isPublic: false })])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .thenThrows('rule', 'This is a private event');
    given(calendarEventDecider, [scheduled({ isPublic: false })])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(organizer) })
      .then([rsvp(organizer.id, 'attending')]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(subscriber) })
      .thenThrows('forbidden');
    given(calendarEventDecider, [scheduled({}, false), { type: 'EventRejected', data: { by: staff.id, at } }] as CalendarEventEvent[])
      .when({ type: 'SetRsvp', data: { status: 'maybe' }, metadata: meta(member) })
      .thenThrows('rule', /not approved/);
    given(calendarEventDecider, [scheduled({ isPublic: false })])
      .when({ type: 'SetRsvp', data: { status: 'maybe' }, metadata: meta(staff) })
      .then([rsvp(staff.id, 'maybe')]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: { now, actor: null } })
      .thenThrows('unauthenticated');
    given(calendarEventDecider, [])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .thenThrows('not_found');
    given(calendarEventDecider, [scheduled(), { type: 'EventDeleted', data: { by: staff.id, at } }] as CalendarEventEvent[])
      .when({ type: 'RemoveRsvp', data: {}, metadata: meta(member) })
      .thenThrows('not_found');
  });
  it('treats an event starting right now as past', () => {
    given(calendarEventDecider, [scheduled({ startDate: at, endDate: '2026-06-01T13:00:00.000Z' })])
      .when({ type: 'SetRsvp', data: { status: 'maybe' }, metadata: meta(member) })
      .thenThrows('rule', 'RSVP is no longer available for past events');
  });
  it('seats anyone when there is no limit', () => {
    const crowd = Array.from({ length: 50 }, (_, i) => rsvp(`m${i}`, 'attending'));
    given(calendarEventDecider, [scheduled({ maxAttendees: null }), ...crowd])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .then([rsvp(member.id, 'attending')]);
  });
});

describe('event form validation', () => {
  const parse = (input: Record<string, unknown>) => {
    const result = v.safeParse(EventSchema, input);
    return result.success ? {} : Object.fromEntries(result.issues.map((issue) => [v.getDotPath(issue), issue.message]));
  };
  it('gives the spec’s messages', () => {
    expect(parse({})).toMatchObject({
      title: 'Event title is required',
      startDate: 'Start date is required',
      endDate: 'End date is required',
    });
    // The spec's rule is "at most 255 characters"; its message says "less than".
    expect(parse({ title: 'x'.repeat(256), startDate: '2026-01-01T10:00', endDate: '2026-01-01T11:00' })).toEqual({
      title: 'Title must be less than 255 characters',
    });
    expect(parse({ title: 'x'.repeat(255), startDate: '2026-01-01T10:00', endDate: '2026-01-01T11:00' })).toEqual({});
    expect(parse({ title: 'A', startDate: 'soon', endDate: '2026-01-01T11:00' })).toEqual({ startDate: 'Invalid start date format' });
    expect(parse({ title: 'A', startDate: '2026-01-01T10:00', endDate: 'later' })).toEqual({ endDate: 'Invalid end date format' });
    expect(parse({ title: 'A', startDate: '2026-01-01T10:00', endDate: '2026-01-01T09:00' })).toEqual({
      endDate: 'End date must be after start date',
    });
    expect(parse({ title: 'A', startDate: '2026-01-01T10:00', endDate: '2026-01-01T10:00' })).toEqual({});
    expect(parse({ title: 'A', startDate: '2026-01-01T10:00', endDate: '2026-01-01T11:00', maxAttendees: 0 })).toEqual({
      maxAttendees: 'Max attendees must be at least 1',
    });
    expect(parse({ title: 'A', startDate: '2026-01-01T10:00', endDate: '2026-01-01T11:00', eventType: 'party' })).toEqual({
      eventType: 'Choose one of the event types',
    });
  });
  it('fills the defaults', () => {
    expect(
      v.parse(EventSchema, {
        title: ' Reunion ',
        startDate: '2026-01-01T10:00:00Z',
        endDate: '2026-01-01T11:00:00Z',
        maxAttendees: '',
        tags: [' a ', 'a', ''],
      }),
    ).toMatchObject({
      title: 'Reunion',
      eventType: 'other',
      isPublic: true,
      isVirtual: false,
      allDay: false,
      maxAttendees: null,
      tags: ['a'],
    });
  });
});

describe('what organisers run', () => {
  const message = (to: 'attending' | 'attending+waitlisted' = 'attending', messageId = 'm1') => ({
    messageId,
    subject: 'Parking',
    body: 'Behind the hall.',
    to,
  });
  const messaged = (hoursAgo: number): CalendarEventEvent => ({
    type: 'AttendeesMessaged',
    data: { ...message(), by: organizer.id, at: new Date(now.getTime() - hoursAgo * 3_600_000).toISOString() },
  });
  const joined = (memberId: string): CalendarEventEvent => ({ type: 'JoinedWaitlist', data: { memberId, previous: null, at } });

  it('messages the attendees for the organizer and staff; nobody else, not a cancelled event, not to nobody', () => {
    given(calendarEventDecider, [scheduled(), rsvp('a', 'attending')])
      .when({ type: 'MessageAttendees', data: message(), metadata: meta(organizer) })
      .then([{ type: 'AttendeesMessaged', data: { ...message(), by: organizer.id, at } }]);
    given(calendarEventDecider, [scheduled(), rsvp('a', 'attending')])
      .when({ type: 'MessageAttendees', data: message(), metadata: meta(staff) })
      .then([{ type: 'AttendeesMessaged', data: { ...message(), by: staff.id, at } }]);
    given(calendarEventDecider, [scheduled(), rsvp('a', 'attending')])
      .when({ type: 'MessageAttendees', data: message(), metadata: meta(member) })
      .thenThrows('forbidden');
    given(calendarEventDecider, [
      scheduled(),
      rsvp('a', 'attending'),
      { type: 'EventCancelled', data: { by: staff.id, at } },
    ] as CalendarEventEvent[])
      .when({ type: 'MessageAttendees', data: message(), metadata: meta(organizer) })
      .thenThrows('rule', /cancelled/);
    // Only maybe, or only waiting: nobody attends to write to, unless those waiting are asked for.
    given(calendarEventDecider, [scheduled(), rsvp('a', 'maybe')])
      .when({ type: 'MessageAttendees', data: message(), metadata: meta(organizer) })
      .thenThrows('rule', /no one to message/);
    given(calendarEventDecider, [scheduled({ maxAttendees: 1 }), rsvp('a', 'attending'), joined('b')])
      .when({ type: 'MessageAttendees', data: message('attending+waitlisted'), metadata: meta(organizer) })
      .then([{ type: 'AttendeesMessaged', data: { ...message('attending+waitlisted'), by: organizer.id, at } }]);
  });

  it('sends at most 3 messages in any 24 hours (429)', () => {
    given(calendarEventDecider, [scheduled(), rsvp('a', 'attending'), messaged(20), messaged(5), messaged(1)])
      .when({ type: 'MessageAttendees', data: message(), metadata: meta(organizer) })
      .thenThrows('rate_limited', /3 messages in the last 24 hours.*in 4 hours/);
    given(calendarEventDecider, [scheduled(), rsvp('a', 'attending'), messaged(25), messaged(5), messaged(1)])
      .when({ type: 'MessageAttendees', data: message(), metadata: meta(organizer) })
      .then([{ type: 'AttendeesMessaged', data: { ...message(), by: organizer.id, at } }]);
  });

  it('lets an invited member RSVP to a private event; accepting twice, or a public event, is a no-op', () => {
    const invited: CalendarEventEvent = { type: 'InvitationAccepted', data: { memberId: member.id, at } };
    given(calendarEventDecider, [scheduled({ isPublic: false })])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .thenThrows('rule', /private event/);
    given(calendarEventDecider, [scheduled({ isPublic: false })])
      .when({ type: 'AcceptInvitation', data: {}, metadata: meta(member) })
      .then([invited]);
    given(calendarEventDecider, [scheduled({ isPublic: false }), invited])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta(member) })
      .then([{ type: 'RsvpChanged', data: { memberId: member.id, status: 'attending', previous: null, at } }]);
    given(calendarEventDecider, [scheduled({ isPublic: false }), invited])
      .when({ type: 'AcceptInvitation', data: {}, metadata: meta(member) })
      .then([]);
    given(calendarEventDecider, [scheduled()])
      .when({ type: 'AcceptInvitation', data: {}, metadata: meta(member) })
      .then([]);
    given(calendarEventDecider, [scheduled({ isPublic: false })])
      .when({ type: 'AcceptInvitation', data: {}, metadata: meta(organizer) })
      .then([]);
  });
});
