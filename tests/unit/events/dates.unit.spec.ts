import { describe, expect, it } from 'vitest';
import { atWallTime, dayKey, defaultEndDate, formatEventDateLine, monthGrid, occursOn, upcomingEvents } from '../../../shared/events/dates';

// Intl may put a narrow no-break space before AM/PM, depending on the ICU version.
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('defaultEndDate', () => {
  it('adds one hour to a Date', () => {
    expect(defaultEndDate(new Date('2026-07-04T18:30:00Z'))).toEqual(new Date('2026-07-04T19:30:00Z'));
  });
  it('adds one hour to a form value on the wall clock, across midnight and month ends', () => {
    expect(defaultEndDate('2026-07-04T18:30')).toBe('2026-07-04T19:30');
    expect(defaultEndDate('2026-12-31T23:15')).toBe('2027-01-01T00:15');
  });
  it('ends an all-day (date-only) start the same day', () => {
    expect(defaultEndDate('2026-07-04')).toBe('2026-07-04');
  });
  it('answers an ISO instant in ISO, and nothing for an empty or unreadable start', () => {
    expect(defaultEndDate('2026-07-04T18:30:00.000Z')).toBe('2026-07-04T19:30:00.000Z');
    expect(defaultEndDate('')).toBe('');
    expect(defaultEndDate('soon')).toBe('');
  });
});

describe('formatEventDateLine', () => {
  const chicago = { timeZone: 'America/Chicago' };

  it('shows a one-day all-day event', () => {
    expect(formatEventDateLine({ startDate: '2026-07-04T00:00:00.000Z', endDate: '2026-07-04T00:00:00.000Z', allDay: true })).toBe(
      'Saturday, July 4, 2026 · All day',
    );
  });
  it('shows a several-day all-day event with its last day', () => {
    expect(formatEventDateLine({ startDate: '2026-07-04T00:00:00.000Z', endDate: '2026-07-06T00:00:00.000Z', allDay: true })).toBe(
      'Saturday, July 4, 2026 – Monday, July 6, 2026 · All day',
    );
  });
  it('reads all-day dates in UTC whatever the reader’s zone, as the calendar file does', () => {
    expect(formatEventDateLine({ startDate: '2026-07-04T00:00:00.000Z', endDate: '2026-07-04T00:00:00.000Z', allDay: true }, chicago)).toBe(
      'Saturday, July 4, 2026 · All day',
    );
  });
  it('shows a same-day time range in the reader’s zone', () => {
    expect(
      plain(formatEventDateLine({ startDate: '2026-07-04T18:00:00.000Z', endDate: '2026-07-04T21:30:00.000Z', allDay: false }, chicago)),
    ).toBe('Saturday, July 4, 2026 · 1:00 PM – 4:30 PM');
  });
  it('shows a range over several days, deciding the day in the reader’s zone', () => {
    // 01:00 UTC on the 5th is still the evening of the 4th in Chicago: one day there, two in UTC.
    const event = { startDate: '2026-07-04T20:00:00.000Z', endDate: '2026-07-05T01:00:00.000Z', allDay: false };
    expect(plain(formatEventDateLine(event, chicago))).toBe('Saturday, July 4, 2026 · 3:00 PM – 8:00 PM');
    expect(plain(formatEventDateLine(event))).toBe('Saturday, July 4, 2026, 8:00 PM – Sunday, July 5, 2026, 1:00 AM');
  });
  it('shows one time when the event ends as it starts', () => {
    expect(plain(formatEventDateLine({ startDate: '2026-07-04T18:00:00.000Z', endDate: '2026-07-04T18:00:00.000Z', allDay: false }))).toBe(
      'Saturday, July 4, 2026 · 6:00 PM',
    );
  });
  it('follows the locale for names and times', () => {
    expect(
      plain(
        formatEventDateLine(
          { startDate: '2026-07-04T18:00:00.000Z', endDate: '2026-07-04T21:00:00.000Z', allDay: false },
          { locale: 'fr-FR', timeZone: 'Europe/Paris' },
        ),
      ),
    ).toBe('samedi 4 juillet 2026 · 20:00 – 23:00');
  });
});

describe('monthGrid', () => {
  it('lays July 2026 out in five weeks from Sunday June 28 to Saturday August 1', () => {
    const weeks = monthGrid(2026, 6);
    expect(weeks).toHaveLength(5);
    expect(weeks[0]![0]).toEqual({ date: '2026-06-28', day: 28, inMonth: false });
    expect(weeks[0]![3]).toEqual({ date: '2026-07-01', day: 1, inMonth: true });
    expect(weeks[4]![6]).toEqual({ date: '2026-08-01', day: 1, inMonth: false });
    expect(weeks.flat().filter((day) => day.inMonth)).toHaveLength(31);
  });
  it('starts every week on a Sunday and keeps only weeks holding a day of the month', () => {
    for (let month = 0; month < 24; month++) {
      const weeks = monthGrid(2026, month);
      expect(weeks.length).toBeGreaterThanOrEqual(4);
      expect(weeks.length).toBeLessThanOrEqual(6);
      for (const week of weeks) {
        expect(week).toHaveLength(7);
        expect(new Date(`${week[0]!.date}T00:00:00Z`).getUTCDay()).toBe(0);
        expect(week.some((day) => day.inMonth)).toBe(true);
      }
    }
  });
  it('fits a February starting on Sunday in four weeks and a 31-day month starting on Saturday in six', () => {
    expect(monthGrid(2026, 1)).toHaveLength(4);
    expect(monthGrid(2026, 7)).toHaveLength(6);
  });
  it('counts months from 0 and overflows into the next year', () => {
    expect(monthGrid(2026, 12)).toEqual(monthGrid(2027, 0));
    expect(monthGrid(2026, 0)[0]!.find((day) => day.inMonth)?.date).toBe('2026-01-01');
  });
});

describe('days and upcoming events', () => {
  it('gives the day of an instant in a zone', () => {
    expect(dayKey('2026-07-05T01:00:00.000Z')).toBe('2026-07-05');
    expect(dayKey('2026-07-05T01:00:00.000Z', 'America/Chicago')).toBe('2026-07-04');
  });
  it('shows an event on every day it spans', () => {
    const event = { startDate: '2026-07-04T18:00:00.000Z', endDate: '2026-07-06T18:00:00.000Z', allDay: false };
    expect(['2026-07-03', '2026-07-04', '2026-07-05', '2026-07-06', '2026-07-07'].map((day) => occursOn(event, day))).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
  });
  it('lists the next events from now, soonest first, five by default', () => {
    const now = new Date('2026-07-01T12:00:00Z');
    const at = (iso: string) => ({ startDate: iso });
    const events = [
      at('2026-07-09T00:00:00Z'),
      at('2026-06-30T00:00:00Z'),
      at('2026-07-01T12:00:00Z'),
      ...['05', '03', '07', '04', '06'].map((d) => at(`2026-07-${d}T00:00:00Z`)),
    ];
    expect(upcomingEvents(events, now).map((e) => e.startDate)).toEqual([
      '2026-07-01T12:00:00Z',
      '2026-07-03T00:00:00Z',
      '2026-07-04T00:00:00Z',
      '2026-07-05T00:00:00Z',
      '2026-07-06T00:00:00Z',
    ]);
    expect(upcomingEvents(events, now, 2)).toHaveLength(2);
  });
});

describe('atWallTime', () => {
  it('finds the instant a zone’s clock shows an hour of a day, in winter, summer and far from UTC', () => {
    expect(atWallTime('2026-01-10', 18, 'America/Chicago').toISOString()).toBe('2026-01-11T00:00:00.000Z');
    expect(atWallTime('2026-07-04', 18, 'America/Chicago').toISOString()).toBe('2026-07-04T23:00:00.000Z');
    expect(atWallTime('2026-07-04', 18, 'Pacific/Auckland').toISOString()).toBe('2026-07-04T06:00:00.000Z');
    expect(atWallTime('2026-07-04', 18, 'UTC').toISOString()).toBe('2026-07-04T18:00:00.000Z');
    // The day the clocks go forward (08:00 UTC is 03:00 CDT that day).
    expect(atWallTime('2026-03-08', 18, 'America/Chicago').toISOString()).toBe('2026-03-08T23:00:00.000Z');
    expect(dayKey(atWallTime('2026-11-01', 18, 'America/Chicago'), 'America/Chicago')).toBe('2026-11-01');
  });
});
