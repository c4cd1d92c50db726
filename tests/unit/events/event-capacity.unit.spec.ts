import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import { DomainError, type Actor } from '../../../shared/domain';
import {
  attendeeCounts,
  calendarEventDecider,
  type CalendarEventCommand,
  type CalendarEventState,
} from '../../../shared/events/event-stream';
import { EventSchema } from '../../../shared/events/schemas';
import { AT_CAPACITY, RSVP_STATUSES } from '../../../shared/events/constants';

const now = new Date('2026-06-01T12:00:00Z');
const staff: Actor = { id: 'staff-1', role: 'staff' };
const fields = (maxAttendees: number | null, waitlist = false) => ({
  ...v.parse(EventSchema, { title: 'WGN reunion', startDate: '2026-07-04T18:00:00Z', endDate: '2026-07-04T21:00:00Z' }),
  maxAttendees,
  waitlist,
});

type Step =
  | { kind: 'set'; member: number; status: (typeof RSVP_STATUSES)[number] }
  | { kind: 'remove'; member: number }
  | { kind: 'limit'; max: number | null };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), member: fc.nat(7), status: fc.constantFrom(...RSVP_STATUSES) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), member: fc.nat(7) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('limit' as const), max: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }) }),
  },
);

const command = (s: Step, waitlist = false): CalendarEventCommand => {
  const member: Actor = { id: `m${'member' in s ? s.member : 0}`, role: 'member' };
  if (s.kind === 'set') return { type: 'SetRsvp', data: { status: s.status }, metadata: { now, actor: member } };
  if (s.kind === 'remove') return { type: 'RemoveRsvp', data: {}, metadata: { now, actor: member } };
  return { type: 'EditEvent', data: { fields: fields(s.max, waitlist) }, metadata: { now, actor: staff } };
};

const scheduled = (max: number, waitlist: boolean): CalendarEventState =>
  calendarEventDecider.evolve(calendarEventDecider.initialState(), {
    type: 'EventScheduled',
    data: { id: 'e1', organizerId: staff.id, fields: fields(max, waitlist), approved: true, scheduledAt: now.toISOString() },
  });

/**
 * The waiting list as plainly as it can be said: who attends, who answered otherwise, and the line in
 * arrival order; a freed place goes to the first in line.
 */
class WaitlistModel {
  readonly answers = new Map<string, 'attending' | 'maybe' | 'not_attending'>();
  line: string[] = [];
  constructor(public max: number | null) {}

  attending = () => [...this.answers.values()].filter((status) => status === 'attending').length;
  private seatFromLine() {
    while (this.line.length > 0 && (this.max === null || this.attending() < this.max)) this.answers.set(this.line.shift()!, 'attending');
  }
  apply(s: Step) {
    const member = `m${'member' in s ? s.member : 0}`;
    const waiting = this.line.includes(member);
    if (s.kind === 'limit') {
      if (s.max !== null && s.max < this.attending()) return 'refused';
      this.max = s.max;
    } else if (s.kind === 'remove') {
      if (waiting) this.line = this.line.filter((id) => id !== member);
      else this.answers.delete(member);
    } else if (s.status === 'attending') {
      if (waiting || this.answers.get(member) === 'attending') return 'unchanged';
      if (this.line.length === 0 && (this.max === null || this.attending() < this.max)) this.answers.set(member, 'attending');
      else {
        this.answers.delete(member);
        this.line.push(member);
      }
    } else {
      this.line = this.line.filter((id) => id !== member);
      this.answers.set(member, s.status);
    }
    this.seatFromLine();
    return 'applied';
  }
}

describe('the waiting list under any interleaving of RSVPs, cancellations and limit changes', () => {
  it('never overbooks, keeps the line in arrival order, promotes only the first in line, and agrees with the model', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 80 }), (max, steps) => {
        let state = scheduled(max, true);
        const model = new WaitlistModel(max);
        for (const s of steps) {
          const expected = model.apply(s);
          let events: ReturnType<typeof calendarEventDecider.decide> = [];
          try {
            events = calendarEventDecider.decide(command(s, true), state);
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            // The only refusal left: a limit below those already attending.
            expect([error.code, expected]).toEqual(['rule', 'refused']);
          }
          for (const event of events) {
            // Nobody is promoted twice or out of turn: only the first in line, while they are in it.
            if (event.type === 'PromotedFromWaitlist') expect(event.data.memberId).toBe(state.waiting[0]);
            state = calendarEventDecider.evolve(state, event);
          }
          if (expected === 'unchanged') expect(events).toEqual([]);
          const limit = state.fields!.maxAttendees;
          const attending = attendeeCounts(state.rsvps.values()).attending;
          if (limit !== null) expect(attending).toBeLessThanOrEqual(limit);
          // Nobody waits while a place is free.
          if (state.waiting.length > 0) expect(attending).toBe(limit);
          expect(state.waiting).toEqual(model.line);
          expect(new Map(state.rsvps)).toEqual(model.answers);
          expect(new Set(state.waiting).size).toBe(state.waiting.length);
          for (const id of state.waiting) expect(state.rsvps.has(id)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('capacity under any sequence of RSVPs and limit changes, with the waiting list off', () => {
  it('never seats more than max attendees, and refuses a seat only when the event is full', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 60 }), (max, steps) => {
        let state = scheduled(max, false);
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
