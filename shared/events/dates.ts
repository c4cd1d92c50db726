/**
 * Calendar date helpers shared by the client, the server and the e-mails, pure so
 * that they agree and can be tested without a browser. Instants are ISO strings in
 * UTC; a day is a `YYYY-MM-DD` key read in a time zone. All-day events are calendar
 * dates, read in UTC whatever the reader's zone, as `ics.ts` writes them: otherwise
 * a date would move by one day between the page and the exported file.
 */
import { DEFAULT_DURATION_MS, UPCOMING_LIMIT, WEEK_STARTS_ON } from './constants';
import { fromWallClock } from './wall-clock';

/** A calendar day, `YYYY-MM-DD`; keys sort and compare as strings. */
export type DayKey = string;

export interface EventSpan {
  startDate: string;
  endDate: string;
  allDay: boolean;
}

export interface DateFormatOptions {
  /** BCP 47 locale of the month and weekday names; `en-US` by default. */
  locale?: string;
  /** IANA zone of the reader; UTC by default so that the server's output never depends on its host. */
  timeZone?: string;
}

const FORM_VALUE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * The end the form proposes once a start is entered: start plus one hour (docs/domain/events.md#constants).
 * A form value (`YYYY-MM-DDTHH:mm`, the reader's wall clock) gets a form value back,
 * computed on the wall clock so no time zone is needed; a date-only value (all-day)
 * ends the same day. Any other string is read as an instant and answered in ISO;
 * an empty or unreadable one gives '' (nothing to propose).
 */
export function defaultEndDate(start: Date): Date;
export function defaultEndDate(start: string): string;
export function defaultEndDate(start: Date | string): Date | string {
  if (start instanceof Date) return new Date(start.getTime() + DEFAULT_DURATION_MS);
  const wall = FORM_VALUE.exec(start);
  if (wall) {
    const [, year, month, day, hours, minutes] = wall;
    if (hours === undefined || minutes === undefined) return start;
    const end = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hours), Number(minutes)) + DEFAULT_DURATION_MS);
    return `${pad(end.getUTCFullYear(), 4)}-${pad(end.getUTCMonth() + 1)}-${pad(end.getUTCDate())}T${pad(end.getUTCHours())}:${pad(end.getUTCMinutes())}`;
  }
  const time = new Date(start).getTime();
  return Number.isNaN(time) ? '' : new Date(time + DEFAULT_DURATION_MS).toISOString();
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, timeZone: string, kind: 'key' | 'day' | 'time'): Intl.DateTimeFormat {
  const cacheKey = `${kind}|${locale}|${timeZone}`;
  let cached = formatters.get(cacheKey);
  if (!cached) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'key'
        ? { year: 'numeric', month: '2-digit', day: '2-digit' }
        : kind === 'day'
          ? { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }
          : { hour: 'numeric', minute: '2-digit' };
    cached = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(cacheKey, cached);
  }
  return cached;
}

/** The day an instant falls on in `timeZone` (UTC by default). */
export function dayKey(instant: string | Date, timeZone = 'UTC'): DayKey {
  const parts = formatter('en-US', timeZone, 'key').formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The instant the clock on the wall in `timeZone` shows `hour`:00 on `day` (the earlier one, in a repeated hour). */
export function atWallTime(day: DayKey, hour: number, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(fromWallClock({ year, month, day: date, hour, minute: 0, second: 0 }, timeZone));
}

/** First and last day of an event; all-day events are read in UTC (see the module note). */
export function eventDays(event: EventSpan, timeZone = 'UTC'): { first: DayKey; last: DayKey } {
  const zone = event.allDay ? 'UTC' : timeZone;
  return { first: dayKey(event.startDate, zone), last: dayKey(event.endDate, zone) };
}

/** Whether an event is shown on `day` of the month grid: every day it spans, not only its first. */
export function occursOn(event: EventSpan, day: DayKey, timeZone = 'UTC'): boolean {
  const { first, last } = eventDays(event, timeZone);
  return first <= day && day <= last;
}

/**
 * The date line of the event dialog and lists, in four shapes (docs/domain/events.md#date-line):
 *   all-day, one day      Saturday, July 4, 2026 · All day
 *   all-day, several days Saturday, July 4, 2026 – Monday, July 6, 2026 · All day
 *   one day               Saturday, July 4, 2026 · 1:00 PM – 4:00 PM
 *   several days          Saturday, July 4, 2026, 8:00 PM – Sunday, July 5, 2026, 2:00 AM
 * The end of an all-day event is its last day (inclusive), as the form shows it.
 * Only the names and times follow the locale; the words are English, as is the site.
 */
export function formatEventDateLine(event: EventSpan, options: DateFormatOptions = {}): string {
  const locale = options.locale ?? 'en-US';
  const zone = event.allDay ? 'UTC' : (options.timeZone ?? 'UTC');
  const start = new Date(event.startDate);
  const end = new Date(event.endDate);
  const day = (date: Date) => formatter(locale, zone, 'day').format(date);
  const time = (date: Date) => formatter(locale, zone, 'time').format(date);
  const { first, last } = eventDays(event, zone);
  if (event.allDay) return first === last ? `${day(start)} · All day` : `${day(start)} – ${day(end)} · All day`;
  if (first !== last) return `${day(start)}, ${time(start)} – ${day(end)}, ${time(end)}`;
  return start.getTime() === end.getTime() ? `${day(start)} · ${time(start)}` : `${day(start)} · ${time(start)} – ${time(end)}`;
}

export interface MonthGridDay {
  date: DayKey;
  /** Day of the month, 1–31. */
  day: number;
  /** False for the days of the neighbouring months that fill the first and last weeks. */
  inMonth: boolean;
}

/**
 * The weeks of a month, Sunday to Saturday, as the calendar page lays them out: only the
 * weeks that hold a day of the month (four to six). `month` counts from 0 as in `Date`,
 * and overflows the same way (month 12 is January of the next year).
 */
export function monthGrid(year: number, month: number): MonthGridDay[][] {
  const first = new Date(Date.UTC(year, month, 1));
  const shownMonth = first.getUTCMonth();
  const lead = (first.getUTCDay() - WEEK_STARTS_ON + 7) % 7;
  const cursor = new Date(first.getTime() - lead * 86_400_000);
  const weeks: MonthGridDay[][] = [];
  do {
    const week: MonthGridDay[] = [];
    for (let i = 0; i < 7; i++) {
      week.push({ date: cursor.toISOString().slice(0, 10), day: cursor.getUTCDate(), inMonth: cursor.getUTCMonth() === shownMonth });
      cursor.setUTCDate(cursor.getUTCDate() + 1);
    }
    weeks.push(week);
  } while (cursor.getUTCMonth() === shownMonth);
  return weeks;
}

/** The Upcoming Events panel: events starting at or after `now`, soonest first, at most `limit`. */
export function upcomingEvents<E extends Pick<EventSpan, 'startDate'>>(events: readonly E[], now: Date, limit = UPCOMING_LIMIT): E[] {
  const from = now.getTime();
  return events
    .filter((event) => new Date(event.startDate).getTime() >= from)
    .sort((a, b) => new Date(a.startDate).getTime() - new Date(b.startDate).getTime())
    .slice(0, limit);
}
