/**
 * Event times as every page, mail, link preview, widget and calendar summary shows them (docs/domain/events.md#time-zones):
 * in the site's zone, naming it ("7:00 PM CST"), and for a reader whose clock differs, their own time beside it
 * ("7:00 PM CST (8:00 PM your time, EST)"). All-day events are dates, the same everywhere: they name no zone.
 */
import { formatEventDateLine, type EventSpan } from './dates';

/** The site's zone until an admin sets another (PATCH /api/admin/site). */
export const DEFAULT_TIME_ZONE = 'America/Chicago';

/** The zone's canonical IANA name (`america/chicago` → `America/Chicago`), or null for a name Intl does not know. */
export function canonicalTimeZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
export const isTimeZone = (zone: string) => canonicalTimeZone(zone) !== null;

const zoneFormatters = new Map<string, Intl.DateTimeFormat>();
/** The zone's short name at an instant, as Intl writes it: `CST` in winter and `CDT` in summer, `GMT+1` where no abbreviation is common. */
export function zoneName(instant: string | Date, timeZone: string, locale = 'en-US'): string {
  const key = `${locale}|${timeZone}`;
  let formatter = zoneFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' });
    zoneFormatters.set(key, formatter);
  }
  return formatter.formatToParts(new Date(instant)).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

export interface EventTimeOptions {
  /** The site's zone: the event's times are read in it. */
  timeZone: string;
  /** The reader's own zone (a browser's): shown beside when its clock differs from the site's. */
  readerTimeZone?: string;
  locale?: string;
}

/**
 * The event's date line in the site's zone, naming it:
 *   Saturday, July 4, 2026 · 7:00 PM – 10:00 PM CDT
 * and, for a reader whose clock shows other times, theirs beside it (the day too when it differs):
 *   Saturday, July 4, 2026 · 7:00 PM – 10:00 PM CDT (8:00 PM – 11:00 PM your time, EDT)
 */
export function formatEventTime(event: EventSpan, { timeZone, readerTimeZone, locale }: EventTimeOptions): string {
  const line = formatEventDateLine(event, { timeZone, locale });
  if (event.allDay) return line;
  const named = `${line} ${zoneName(event.startDate, timeZone, locale)}`;
  if (!readerTimeZone) return named;
  const theirs = formatEventDateLine(event, { timeZone: readerTimeZone, locale });
  if (theirs === line) return named;
  const [day] = line.split(' · ');
  const [theirDay, theirTimes] = theirs.split(' · ');
  const shown = theirTimes !== undefined && theirDay === day ? theirTimes : theirs;
  return `${named} (${shown} your time, ${zoneName(event.startDate, readerTimeZone, locale)})`;
}

/** One instant's clock time in the site's zone, naming it: `7:00 PM CST` (the month grid, widgets, short lists). */
export function formatClockTime(instant: string, timeZone: string, locale = 'en-US'): string {
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(instant));
  return `${time} ${zoneName(instant, timeZone, locale)}`;
}
