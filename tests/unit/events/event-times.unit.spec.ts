import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, formatClockTime, formatEventTime, zoneName } from '../../../shared/events/event-times';

const winter = { startDate: '2031-01-10T01:00:00.000Z', endDate: '2031-01-10T03:00:00.000Z', allDay: false };
const summer = { startDate: '2031-07-04T23:00:00.000Z', endDate: '2031-07-05T01:00:00.000Z', allDay: false };

describe('event times named by their zone', () => {
  it('names the site’s zone as its clock reads it that day: CST in winter, CDT in summer', () => {
    expect(formatEventTime(winter, { timeZone: 'America/Chicago' })).toBe('Thursday, January 9, 2031 · 7:00 PM – 9:00 PM CST');
    expect(formatEventTime(summer, { timeZone: 'America/Chicago' })).toBe('Friday, July 4, 2031 · 6:00 PM – 8:00 PM CDT');
    expect(zoneName(winter.startDate, 'Europe/Berlin')).toBe('GMT+1');
    expect(formatClockTime(winter.startDate, 'America/Chicago')).toBe('7:00 PM CST');
  });

  it('shows a reader elsewhere their own time beside it, with the day when it differs, and nothing when the clocks agree', () => {
    expect(formatEventTime(winter, { timeZone: 'America/Chicago', readerTimeZone: 'America/New_York' })).toBe(
      'Thursday, January 9, 2031 · 7:00 PM – 9:00 PM CST (8:00 PM – 10:00 PM your time, EST)',
    );
    expect(formatEventTime(winter, { timeZone: 'America/Chicago', readerTimeZone: 'Europe/London' })).toBe(
      'Thursday, January 9, 2031 · 7:00 PM – 9:00 PM CST (Friday, January 10, 2031 · 1:00 AM – 3:00 AM your time, GMT)',
    );
    // Winnipeg keeps Chicago's clock: the same times need no second line.
    expect(formatEventTime(winter, { timeZone: 'America/Chicago', readerTimeZone: 'America/Winnipeg' })).toBe(
      'Thursday, January 9, 2031 · 7:00 PM – 9:00 PM CST',
    );
  });

  it('leaves all-day events as dates, the same everywhere', () => {
    const allDay = { startDate: '2031-07-04T00:00:00.000Z', endDate: '2031-07-04T00:00:00.000Z', allDay: true };
    expect(formatEventTime(allDay, { timeZone: 'America/Chicago', readerTimeZone: 'Asia/Tokyo' })).toBe('Friday, July 4, 2031 · All day');
  });

  it('knows real zones only, spelled as Intl spells them', () => {
    expect(canonicalTimeZone('america/chicago')).toBe('America/Chicago');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
  });
});
