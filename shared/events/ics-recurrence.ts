/**
 * Recurring events in an iCalendar file (RFC 5545 §3.8.5.3, §3.6.5): a series' VEVENT carries its RRULE, and a timed
 * one starts in the site's zone (DTSTART;TZID=…, with that zone's VTIMEZONE in the file), so calendar apps keep each
 * occurrence at the same wall-clock time across changes of offset, as the site does. An all-day series stays in dates.
 * One-off events keep their UTC times.
 */
import { formatRecurrenceRule, ruleOf, seriesReach } from './recurrence';
import { wallClock, zoneOffset } from './wall-clock';

export interface IcsSeries {
  startDate: string;
  endDate: string;
  allDay: boolean;
  /** '' or absent: a one-off event. */
  recurrenceRule?: string;
  /** The zone a timed series repeats in (the site's). */
  timeZone?: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** `YYYYMMDDTHHMMSS` of the wall clock `zone` shows at an instant. */
const localStamp = (instant: number, zone: string) => {
  const wall = wallClock(instant, zone);
  return `${pad(wall.year, 4)}${pad(wall.month)}${pad(wall.day)}T${pad(wall.hour)}${pad(wall.minute)}${pad(wall.second)}`;
};

/** The zone a series' file names, or null when its times are written in UTC (a one-off or an all-day event). */
export function seriesTimeZone(event: IcsSeries): string | null {
  return !event.allDay && event.timeZone && event.recurrenceRule && ruleOf({ recurrenceRule: event.recurrenceRule })
    ? event.timeZone
    : null;
}

/** DTSTART and DTEND of a timed series in its zone, with its RRULE; the RRULE alone for an all-day one; nothing for a one-off. */
export function recurrenceLines(event: IcsSeries): { start: string[]; rule: string[] } {
  const rule = event.recurrenceRule ? ruleOf({ recurrenceRule: event.recurrenceRule }) : null;
  if (!rule) return { start: [], rule: [] };
  const zone = seriesTimeZone(event);
  const rrule = `RRULE:${formatRecurrenceRule(rule, { allDay: event.allDay, timeZone: zone ?? 'UTC' })}`;
  if (!zone) return { start: [], rule: [rrule] };
  return {
    start: [
      `DTSTART;TZID=${zone}:${localStamp(Date.parse(event.startDate), zone)}`,
      `DTEND;TZID=${zone}:${localStamp(Date.parse(event.endDate), zone)}`,
    ],
    rule: [rrule],
  };
}

/**
 * One date-time property of a series (RECURRENCE-ID, EXDATE, or an override's DTSTART/DTEND), written as its DTSTART
 * is: in the series' zone, as a date for an all-day series, else in UTC.
 */
export function seriesTimeLine(event: IcsSeries, name: string, instant: string): string {
  const zone = seriesTimeZone(event);
  if (zone) return `${name};TZID=${zone}:${localStamp(Date.parse(instant), zone)}`;
  if (event.allDay) return `${name};VALUE=DATE:${localStamp(Date.parse(instant), 'UTC').slice(0, 8)}`;
  return `${name}:${localStamp(Date.parse(instant), 'UTC')}Z`;
}

const offsetText = (offset: number) => {
  const minutes = Math.round(Math.abs(offset) / 60_000);
  return `${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}${pad(minutes % 60)}`;
};
const STEP_MS = 6 * 3_600_000;

/**
 * A VTIMEZONE for `zone` from `from` to `to` (ms): its offset then, and each change of offset between, found from the
 * zone's own rules (Intl) to the minute. Each change is written as its own observance, so no rule of the zone needs
 * to be guessed.
 */
export function vtimezoneLines(zone: string, from: number, to: number): string[] {
  const changes: { at: number; before: number; after: number }[] = [];
  let offset = zoneOffset(from, zone);
  const initial = offset;
  for (let t = from; t < to; t += STEP_MS) {
    const next = zoneOffset(t + STEP_MS, zone);
    if (next === offset) continue;
    let low = t;
    let high = t + STEP_MS;
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 120_000) * 60_000;
      if (zoneOffset(middle, zone) === offset) low = middle;
      else high = middle;
    }
    changes.push({ at: high, before: offset, after: next });
    offset = next;
  }
  const observance = (kind: string, at: number, before: number, after: number) => [
    `BEGIN:${kind}`,
    // The wall-clock time the change happens at, as the clock showed it before.
    `DTSTART:${localStamp(at + before, 'UTC')}`,
    `TZOFFSETFROM:${offsetText(before)}`,
    `TZOFFSETTO:${offsetText(after)}`,
    `END:${kind}`,
  ];
  // The offset at the start is daylight time when the first change lowers it.
  const initialKind = changes[0] && changes[0].after < changes[0].before ? 'DAYLIGHT' : 'STANDARD';
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${zone}`,
    ...observance(initialKind, from, initial, initial),
    ...changes.flatMap((change) =>
      observance(change.after > change.before ? 'DAYLIGHT' : 'STANDARD', change.at, change.before, change.after),
    ),
    'END:VTIMEZONE',
  ];
}

/** The VTIMEZONEs a file's series need: one per zone, covering each of its series from start to reach. */
export function timeZoneLines(events: IcsSeries[]): string[] {
  const spans = new Map<string, { from: number; to: number }>();
  for (const event of events) {
    const zone = seriesTimeZone(event);
    if (!zone) continue;
    const from = Date.parse(event.startDate) - 86_400_000;
    const to = Date.parse(seriesReach({ startDate: event.startDate, recurrenceRule: event.recurrenceRule ?? '' })) + 86_400_000;
    const span = spans.get(zone);
    spans.set(zone, span ? { from: Math.min(span.from, from), to: Math.max(span.to, to) } : { from, to });
  }
  return [...spans].flatMap(([zone, { from, to }]) => vtimezoneLines(zone, from, to));
}
