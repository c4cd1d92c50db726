import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { given } from '../../support/decider-spec';
import { calendarEventDecider, type CalendarEventEvent } from '../../../shared/events/event-stream';
import { EventSchema, type EventFields } from '../../../shared/events/schemas';
import {
  describeSeries,
  formatRecurrenceRule,
  occurrenceAt,
  occurrenceStarts,
  parseRecurrenceRule,
  recurrenceProblem,
  recurrenceRuleOf,
  repeatOf,
  seriesEnd,
  seriesReach,
  NO_REPEAT,
} from '../../../shared/events/recurrence';

const NEW_YORK = 'America/New_York';
const CHICAGO = 'America/Chicago';

/** The RFC's examples start at 09:00 in New York: a series starting then, with the rule given. */
const rfc = (start: string, recurrenceRule: string) => {
  const startDate = new Date(`${start}T13:00:00Z`).toISOString(); // 09:00 EDT
  return { startDate, endDate: new Date(Date.parse(startDate) + 3_600_000).toISOString(), allDay: false, recurrenceRule };
};
/** Each occurrence as New York's wall clock shows it: `YYYY-MM-DD HH:MM`. */
const wall = (instants: string[], zone = NEW_YORK) =>
  instants.map((instant) =>
    new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(instant)),
  );
const days = (instants: string[], zone = NEW_YORK) => wall(instants, zone).map((text) => text.slice(0, 10));

describe('parseRecurrenceRule', () => {
  it('reads the subset and writes it back in one order', () => {
    const parsed = parseRecurrenceRule('RRULE:byday=2TU;freq=monthly;interval=3;count=12');
    expect(parsed).toEqual({ rule: { freq: 'MONTHLY', interval: 3, byDay: [{ weekday: 2, nth: 2 }], count: 12 } });
    if ('rule' in parsed) expect(formatRecurrenceRule(parsed.rule)).toBe('FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU;COUNT=12');
  });
  it('writes a date UNTIL of a timed series as the last instant of that day in its zone, in UTC', () => {
    const parsed = parseRecurrenceRule('FREQ=WEEKLY;UNTIL=20270301');
    if (!('rule' in parsed)) throw new Error('unread');
    expect(formatRecurrenceRule(parsed.rule, { allDay: false, timeZone: CHICAGO })).toBe('FREQ=WEEKLY;UNTIL=20270302T055959Z');
    expect(formatRecurrenceRule(parsed.rule, { allDay: true, timeZone: CHICAGO })).toBe('FREQ=WEEKLY;UNTIL=20270301');
  });
  it.each([
    ['FREQ=DAILY', 'FREQ must be WEEKLY or MONTHLY'],
    ['FREQ=WEEKLY;BYMONTHDAY=3', 'BYMONTHDAY is not supported'],
    ['FREQ=WEEKLY;INTERVAL=0', 'INTERVAL must be a whole number from 1 to 99'],
    ['FREQ=WEEKLY;BYDAY=2TU', 'numbered days such as 2TU are monthly'],
    ['FREQ=MONTHLY;BYDAY=6TU', 'BYDAY counts days from 1 to 5'],
    ['FREQ=MONTHLY;BYDAY=TUE', 'BYDAY must list days'],
    ['FREQ=WEEKLY;COUNT=501', 'COUNT must be a whole number from 1 to 500'],
    ['FREQ=WEEKLY;COUNT=3;UNTIL=20270101', 'not both'],
    ['FREQ=WEEKLY;UNTIL=20270231', 'UNTIL must be a date'],
    ['FREQ=WEEKLY;UNTIL=20270201T120000', 'UNTIL must be a date'],
    ['FREQ', 'unreadable part'],
  ])('refuses %s with a sentence for the field', (text, message) => {
    const parsed = parseRecurrenceRule(text);
    expect('error' in parsed && parsed.error).toContain(message);
  });
});

describe('occurrenceStarts: RFC 5545 §3.8.5.3 examples (09:00 America/New_York)', () => {
  it('weekly for 10 occurrences, keeping 09:00 across the end of daylight time', () => {
    const starts = occurrenceStarts(rfc('1997-09-02', 'FREQ=WEEKLY;COUNT=10'), NEW_YORK);
    expect(wall(starts)).toEqual(
      ['09-02', '09-09', '09-16', '09-23', '09-30', '10-07', '10-14', '10-21', '10-28', '11-04'].map((day) => `1997-${day} 09:00`),
    );
    // The clocks went back on October 26: the same wall-clock time is an hour later in UTC.
    expect(starts[7]).toBe('1997-10-21T13:00:00.000Z');
    expect(starts[8]).toBe('1997-10-28T14:00:00.000Z');
  });
  it('weekly on Tuesday and Thursday until a UTC time (UNTIL is inclusive)', () => {
    const starts = occurrenceStarts(rfc('1997-09-02', 'FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH'), NEW_YORK);
    expect(days(starts)).toEqual(
      ['09-02', '09-04', '09-09', '09-11', '09-16', '09-18', '09-23', '09-25', '09-30', '10-02'].map((day) => `1997-${day}`),
    );
  });
  it('every other week on Monday, Wednesday and Friday (INTERVAL with WKST=SU)', () => {
    const starts = occurrenceStarts(rfc('1997-09-01', 'FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR'), NEW_YORK);
    expect(days(starts)).toEqual(
      [
        ...['09-01', '09-03', '09-05', '09-15', '09-17', '09-19', '09-29', '10-01', '10-03', '10-13', '10-15', '10-17'],
        ...['10-27', '10-29', '10-31', '11-10', '11-12', '11-14', '11-24', '11-26', '11-28', '12-08', '12-10', '12-12', '12-22'],
      ].map((day) => `1997-${day}`),
    );
  });
  it('monthly on the first Friday for 10 occurrences', () => {
    const starts = occurrenceStarts(rfc('1997-09-05', 'FREQ=MONTHLY;COUNT=10;BYDAY=1FR'), NEW_YORK);
    expect(days(starts)).toEqual([
      ...['1997-09-05', '1997-10-03', '1997-11-07', '1997-12-05'],
      ...['1998-01-02', '1998-02-06', '1998-03-06', '1998-04-03', '1998-05-01', '1998-06-05'],
    ]);
  });
  it('every other month on the first and last Sunday for 10 occurrences', () => {
    const starts = occurrenceStarts(rfc('1997-09-07', 'FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU'), NEW_YORK);
    expect(days(starts)).toEqual([
      ...['1997-09-07', '1997-09-28', '1997-11-02', '1997-11-30'],
      ...['1998-01-04', '1998-01-25', '1998-03-01', '1998-03-29', '1998-05-03', '1998-05-31'],
    ]);
  });
  it('monthly on the second-to-last Monday for 6 months', () => {
    const starts = occurrenceStarts(rfc('1997-09-22', 'FREQ=MONTHLY;COUNT=6;BYDAY=-2MO'), NEW_YORK);
    expect(days(starts)).toEqual(['1997-09-22', '1997-10-20', '1997-11-17', '1997-12-22', '1998-01-19', '1998-02-16']);
  });
  it('monthly on the second Tuesday, and on the start’s date (a 31st skips the shorter months)', () => {
    expect(days(occurrenceStarts(rfc('2026-12-08', 'FREQ=MONTHLY;BYDAY=2TU;COUNT=3'), CHICAGO), CHICAGO)).toEqual([
      '2026-12-08',
      '2027-01-12',
      '2027-02-09',
    ]);
    const thirtyFirst = {
      startDate: '2027-01-31T18:00:00.000Z',
      endDate: '2027-01-31T19:00:00.000Z',
      allDay: false,
      recurrenceRule: 'FREQ=MONTHLY;COUNT=3',
    };
    expect(days(occurrenceStarts(thirtyFirst, CHICAGO), CHICAGO)).toEqual(['2027-01-31', '2027-03-31', '2027-05-31']);
  });
});

describe('occurrenceStarts: windows, caps and zones', () => {
  const weekly = {
    startDate: '2026-10-27T00:00:00.000Z',
    endDate: '2026-10-27T02:00:00.000Z',
    allDay: false,
    recurrenceRule: 'FREQ=WEEKLY',
  };
  it('keeps 7 PM in Chicago when daylight time ends (Monday evening, November 2)', () => {
    // 2026-10-26 19:00 CDT is 00:00Z on the 27th; after November 1 it is 01:00Z.
    expect(occurrenceStarts(weekly, CHICAGO, { limit: 3 })).toEqual([
      '2026-10-27T00:00:00.000Z',
      '2026-11-03T01:00:00.000Z',
      '2026-11-10T01:00:00.000Z',
    ]);
    expect(wall(occurrenceStarts(weekly, CHICAGO, { limit: 3 }), CHICAGO).map((text) => text.slice(11))).toEqual([
      '19:00',
      '19:00',
      '19:00',
    ]);
  });
  it('expands only the window asked for, and a series without an end stops two years after its start', () => {
    expect(occurrenceStarts(weekly, CHICAGO, { from: '2027-03-01T00:00:00Z', to: '2027-03-16T00:30:00Z' })).toEqual([
      '2027-03-02T01:00:00.000Z',
      '2027-03-09T01:00:00.000Z',
      '2027-03-16T00:00:00.000Z', // daylight time from March 14: 7 PM is an hour earlier in UTC
    ]);
    const all = occurrenceStarts(weekly, CHICAGO);
    expect(all).toHaveLength(105);
    expect(seriesEnd(weekly, CHICAGO)).toBe(all.at(-1));
    expect(Date.parse(all.at(-1)!)).toBeLessThanOrEqual(Date.parse('2028-10-27T00:00:00Z'));
  });
  it('caps COUNT at 500 and a long UNTIL at two years', () => {
    expect(occurrenceStarts({ ...weekly, recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;COUNT=500' }, CHICAGO)).toHaveLength(500);
    expect(occurrenceStarts({ ...weekly, recurrenceRule: 'FREQ=WEEKLY;UNTIL=20400101' }, CHICAGO)).toHaveLength(105);
  });
  it('reads an all-day series in UTC, as its dates are', () => {
    const allDay = {
      startDate: '2026-12-01T00:00:00.000Z',
      endDate: '2026-12-01T00:00:00.000Z',
      allDay: true,
      recurrenceRule: 'FREQ=WEEKLY;COUNT=2',
    };
    expect(occurrenceStarts(allDay, CHICAGO)).toEqual(['2026-12-01T00:00:00.000Z', '2026-12-08T00:00:00.000Z']);
  });
  it('knows its occurrences by their start, and a one-off event has one', () => {
    expect(occurrenceAt(weekly, CHICAGO, '2026-11-03T01:00:00Z')).toBe('2026-11-03T01:00:00.000Z');
    expect(occurrenceAt(weekly, CHICAGO, '2026-11-03T00:00:00Z')).toBeNull();
    const once = { ...weekly, recurrenceRule: '' };
    expect(occurrenceStarts(once, CHICAGO)).toEqual([weekly.startDate]);
    expect(occurrenceAt(once, CHICAGO, weekly.startDate)).toBe(weekly.startDate);
  });
});

describe('recurrenceProblem', () => {
  const start = { startDate: '2026-12-08T18:00:00.000Z', endDate: '2026-12-08T19:00:00.000Z', allDay: false }; // a Tuesday
  it('wants the start on one of the rule’s days and UNTIL not before it', () => {
    expect(recurrenceProblem({ ...start, recurrenceRule: 'FREQ=WEEKLY;BYDAY=TU,TH' }, CHICAGO)).toBeNull();
    expect(recurrenceProblem({ ...start, recurrenceRule: 'FREQ=WEEKLY;BYDAY=WE' }, CHICAGO)).toBe(
      'The start date (a Tuesday) must be one of the days the event repeats on',
    );
    expect(recurrenceProblem({ ...start, recurrenceRule: 'FREQ=MONTHLY;BYDAY=-1TU' }, CHICAGO)).toContain('must be one of the days');
    expect(recurrenceProblem({ ...start, recurrenceRule: 'FREQ=WEEKLY;UNTIL=20261201' }, CHICAGO)).toBe(
      'The repeat must end on or after the start date',
    );
    expect(recurrenceProblem({ ...start, recurrenceRule: '' }, CHICAGO)).toBeNull();
  });
});

describe('in words, and the form’s control', () => {
  const series = (recurrenceRule: string) => ({
    startDate: '2026-12-08T18:00:00.000Z',
    endDate: '2026-12-08T19:00:00.000Z',
    allDay: false,
    recurrenceRule,
  });
  it('says the rule in words', () => {
    expect(describeSeries(series('FREQ=WEEKLY'), CHICAGO)).toBe('Weekly on Tuesday');
    expect(describeSeries(series('FREQ=WEEKLY;INTERVAL=2;BYDAY=TH,TU;COUNT=10'), CHICAGO)).toBe(
      'Every 2 weeks on Tuesday and Thursday, 10 times',
    );
    expect(describeSeries(series('FREQ=MONTHLY;BYDAY=2TU;UNTIL=20270301'), CHICAGO)).toBe(
      'Monthly on the second Tuesday, until March 1, 2027',
    );
    expect(describeSeries(series('FREQ=MONTHLY;BYDAY=-1FR'), CHICAGO)).toBe('Monthly on the last Friday');
    expect(describeSeries(series('FREQ=MONTHLY;INTERVAL=3'), CHICAGO)).toBe('Every 3 months on the 8th');
    expect(describeSeries(series(''), CHICAGO)).toBeNull();
  });
  it('makes the rule from the control and reads it back', () => {
    const weekly = { ...NO_REPEAT, frequency: 'weekly' as const, weekdays: [4], ends: 'count' as const, count: 6 };
    expect(recurrenceRuleOf(weekly, '2026-12-08')).toBe('FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6');
    expect(repeatOf('FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6')).toEqual({ ...weekly, weekdays: [2, 4] });
    const monthly = { ...NO_REPEAT, frequency: 'monthly' as const, interval: 2, ends: 'until' as const, until: '2027-06-30' };
    expect(recurrenceRuleOf(monthly, '2026-12-08')).toBe('FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU;UNTIL=20270630');
    expect(recurrenceRuleOf(monthly, '2026-12-29')).toBe('FREQ=MONTHLY;INTERVAL=2;BYDAY=-1TU;UNTIL=20270630');
    expect(recurrenceRuleOf({ ...monthly, monthlyBy: 'date', ends: 'never' }, '2026-12-08')).toBe('FREQ=MONTHLY;INTERVAL=2');
    expect(recurrenceRuleOf(NO_REPEAT, '2026-12-08')).toBe('');
    expect(repeatOf('')).toEqual(NO_REPEAT);
  });
});

describe('the event’s stream: RSVP per occurrence', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const at = now.toISOString();
  const meta = (id: string) => ({ now, actor: { id, role: 'member' as const } });
  const fields = (overrides: Partial<EventFields> = {}): EventFields => ({
    ...v.parse(EventSchema, {
      title: 'Tape night',
      startDate: '2026-07-07T00:00:00Z',
      endDate: '2026-07-07T02:00:00Z',
      recurrenceRule: 'FREQ=WEEKLY;COUNT=4',
      maxAttendees: 1,
    }),
    ...overrides,
  });
  const second = '2026-07-14T00:00:00.000Z';
  const scheduled: CalendarEventEvent = {
    type: 'EventScheduled',
    data: { id: 'e1', organizerId: 'org', fields: fields(), approved: true, scheduledAt: at },
  };
  const first = (memberId: string): CalendarEventEvent => ({
    type: 'RsvpChanged',
    data: { memberId, status: 'attending', previous: null, at },
  });

  it('gives each occurrence its own places: the first full, the second still open', () => {
    given(calendarEventDecider, [scheduled, first('a')])
      .when({ type: 'SetRsvp', data: { status: 'attending', occurrence: second }, metadata: meta('b') })
      .then([{ type: 'RsvpChanged', data: { memberId: 'b', status: 'attending', previous: null, at, occurrence: second } }]);
    given(calendarEventDecider, [scheduled, first('a')])
      .when({ type: 'SetRsvp', data: { status: 'attending' }, metadata: meta('b') })
      .then([{ type: 'JoinedWaitlist', data: { memberId: 'b', previous: null, at } }]);
  });
  it('keeps each occurrence’s line: leaving one promotes its first in line only', () => {
    const later = (event: CalendarEventEvent): CalendarEventEvent =>
      ({ ...event, data: { ...event.data, occurrence: second } }) as CalendarEventEvent;
    given(calendarEventDecider, [
      scheduled,
      first('a'),
      { type: 'JoinedWaitlist', data: { memberId: 'c', previous: null, at } } as CalendarEventEvent,
      later(first('b')),
      later({ type: 'JoinedWaitlist', data: { memberId: 'd', previous: null, at } }),
    ])
      .when({ type: 'RemoveRsvp', data: { occurrence: second }, metadata: meta('b') })
      .then([
        later({ type: 'RsvpRemoved', data: { memberId: 'b', previous: 'attending', at } }),
        later({ type: 'PromotedFromWaitlist', data: { memberId: 'd', at } }),
      ]);
  });
  it('raising the limit seats those waiting in every occurrence; it may not go below the fullest one', () => {
    const later = (event: CalendarEventEvent): CalendarEventEvent =>
      ({ ...event, data: { ...event.data, occurrence: second } }) as CalendarEventEvent;
    const history = [scheduled, later(first('b')), later({ type: 'JoinedWaitlist', data: { memberId: 'd', previous: null, at } })];
    given(calendarEventDecider, history)
      .when({ type: 'EditEvent', data: { fields: fields({ maxAttendees: 2 }) }, metadata: { now, actor: { id: 'staff', role: 'staff' } } })
      .then([
        { type: 'EventEdited', data: { fields: fields({ maxAttendees: 2 }), by: 'staff', at } },
        later({ type: 'PromotedFromWaitlist', data: { memberId: 'd', at } }),
      ]);
    const roomy: CalendarEventEvent = {
      ...scheduled,
      data: { ...scheduled.data, fields: fields({ maxAttendees: 2 }) },
    } as CalendarEventEvent;
    const two: CalendarEventEvent[] = [roomy, later(first('b')), later(first('c'))];
    given(calendarEventDecider, two)
      .when({ type: 'EditEvent', data: { fields: fields({ maxAttendees: 1 }) }, metadata: meta('org') })
      .thenThrows('rule');
  });
});

describe('seriesReach', () => {
  it('bounds the last start of a series without knowing its zone', () => {
    const base = { startDate: '2026-12-08T18:00:00.000Z', endDate: '2026-12-08T19:00:00.000Z', allDay: false };
    for (const recurrenceRule of [
      'FREQ=WEEKLY;COUNT=5',
      'FREQ=MONTHLY;BYDAY=-1TU;UNTIL=20270601',
      'FREQ=MONTHLY;BYDAY=5MO',
      'FREQ=WEEKLY;INTERVAL=3',
    ])
      for (const zone of [CHICAGO, 'Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        const series = { ...base, recurrenceRule };
        expect(Date.parse(seriesEnd(series, zone))).toBeLessThanOrEqual(Date.parse(seriesReach(series)));
      }
    expect(seriesReach({ ...base, recurrenceRule: '' })).toBe(base.startDate);
  });
});
