import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import { DomainError, type Actor } from '../../../shared/domain';
import { attendeeCounts, calendarEventDecider, type CalendarEventCommand, type CalendarEventState } from '../../../shared/events/event-stream';
import { EventSchema } from '../../../shared/events/schemas';
import { AT_CAPACITY, RSVP_STATUSES } from '../../../shared/events/constants';

const now = new Date('2026-06-01T12:00:00Z');
const staff: Actor = { id: 'staff-1', role: 'staff' };
const fields = (maxAttendees: number | null) => ({
  ...v.parse(EventSchema, { title: 'WGN reunion', startDate: '2026-07-04T18:00:00Z', endDate: '2026-07-04T21:00:00Z' }),
  maxAttendees,
});

type Step = { kind: 'set'; member: number; status: (typeof RSVP_STATUSES)[number] } | { kind: 'remove'; member: number } | { kind: 'limit'; max: number | null };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), member: fc.nat(7), status: fc.constantFrom(...RSVP_STATUSES) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), member: fc.nat(7) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('limit' as const), max: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }) }) },
);

const command = (s: Step): CalendarEventCommand => {
  const member: Actor = { id: `m${'member' in s ? s.member : 0}`, role: 'member' };
  if (s.kind === 'set') return { type: 'SetRsvp', data: { status: s.status }, metadata: { now, actor: member } };
  if (s.kind === 'remove') return { type: 'RemoveRsvp', data: {}, metadata: { now, actor: member } };
  return { type: 'EditEvent', data: { fields: fields(s.max) }, metadata: { now, actor: staff } };
};

describe('capacity under any sequence of RSVPs and limit changes', () => {
  it('never seats more than max attendees, and refuses a seat only when the event is full', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 60 }), (max, steps) => {
        let state: CalendarEventState = calendarEventDecider.evolve(calendarEventDecider.initialState(), {
          type: 'EventScheduled',
          data: { id: 'e1', organizerId: staff.id, fields: fields(max), approved: true, scheduledAt: now.toISOString() },
        });
        for (const s of steps) {
          const before = attendeeCounts(state.rsvps.values()).attending;
          const limit = state.fields!.maxAttendees;
          try {
            for (const event of calendarEventDecider.decide(command(s), state)) state = calendarEventDecider.evolve(state, event);
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            if (error.code === 'conflict') {
              // Full, and the member was not already attending.
              expect(error.message).toBe(AT_CAPACITY);
              expect(s.kind === 'set' && s.status === 'attending' && limit !== null && before === limit).toBe(true);
            } else {
              // Lowering the limit below those already attending.
              expect(error.code).toBe('rule');
              expect(s.kind === 'limit' && s.max !== null && s.max < before).toBe(true);
            }
          }
          const counts = attendeeCounts(state.rsvps.values());
          const currentLimit = state.fields!.maxAttendees;
          if (currentLimit !== null) expect(counts.attending).toBeLessThanOrEqual(currentLimit);
          // Each member counts once, whatever they switched between.
          expect(counts.attending + counts.maybe + counts.notAttending).toBe(state.rsvps.size);
        }
      }),
      { numRuns: 300 },
    );
  });
});
