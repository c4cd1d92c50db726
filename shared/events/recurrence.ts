/**
 * Recurring events (docs/domain/events.md#recurring-events): the RFC 5545 RRULE subset the site takes — FREQ=WEEKLY
 * or MONTHLY, INTERVAL, BYDAY (monthly also as 2TU or -1FR) and COUNT or UNTIL — parsed, written back, put in words
 * and expanded into occurrences.
 *
 * Occurrences keep the start's wall-clock time in the site's zone across changes of offset (a 7 PM meeting stays at
 * 7 PM after the clocks change); all-day events are calendar dates, read in UTC as everywhere else (dates.ts).
 * The first occurrence is the event's start, which must be one of the rule's days (checked by recurrenceProblem).
 * Cost stays flat: a series ends after at most RECURRENCE_MAX_COUNT occurrences and RECURRENCE_MAX_YEARS years, and
 * only the occurrences of the window asked for are made.
 */
import type { DayKey } from './dates';
import { fromWallClock, type Wall, wallClock } from './wall-clock';

export const RECURRENCE_FREQUENCIES = ['WEEKLY', 'MONTHLY'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];
/** RFC 5545's day codes, in Date#getUTCDay order (0 = Sunday). */
export const WEEKDAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const NTH_NAMES: Record<number, string> = { 1: 'first', 2: 'second', 3: 'third', 4: 'fourth', 5: 'fifth', [-1]: 'last' };
/** The most occurrences of one series (COUNT), and how far after its start a series may run (UNTIL, or a rule without an end). */
export const RECURRENCE_MAX_COUNT = 500;
export const RECURRENCE_MAX_YEARS = 2;
export const RECURRENCE_MAX_INTERVAL = 99;

export interface RecurrenceDay {
  /** 0 = Sunday. */
  weekday: number;
  /** Monthly only: the nth such day of the month (1–5), or counted from its end (−1 = the last). */
  nth?: number;
}
export interface RecurrenceRule {
  freq: RecurrenceFrequency;
  interval: number;
  /** Empty: the start's weekday (weekly) or the start's day of the month (monthly). */
  byDay: RecurrenceDay[];
  count?: number;
  /** The day weeks start on (WKST; it matters for an INTERVAL above 1); Monday when absent. */
  weekStart?: number;
  /** The last day (`YYYY-MM-DD`, inclusive, read in the event's zone) or instant (ISO, UTC) an occurrence may start. */
  until?: string;
}

export type Parsed = { rule: RecurrenceRule } | { error: string };

const UNTIL_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/u;
const BYDAY_VALUE = /^([+-]?\d)?(SU|MO|TU|WE|TH|FR|SA)$/u;

/** Reads a rule (`FREQ=WEEKLY;BYDAY=TU`, with or without `RRULE:`); the error is a sentence for the form's field. */
export function parseRecurrenceRule(text: string): Parsed {
  const body = text.trim().replace(/^RRULE:/iu, '');
  if (body === '') return { error: 'The repeat rule is empty' };
  const parts = new Map<string, string>();
  for (const part of body.split(';')) {
    if (part === '') continue;
    const [name, value, ...rest] = part.split('=');
    if (!name || value === undefined || rest.length > 0 || value === '')
      return { error: `The repeat rule has an unreadable part: ${part}` };
    const key = name.toUpperCase();
    if (parts.has(key)) return { error: `The repeat rule names ${key} twice` };
    parts.set(key, value.toUpperCase());
  }
  for (const key of parts.keys())
    if (!['FREQ', 'INTERVAL', 'BYDAY', 'COUNT', 'UNTIL', 'WKST'].includes(key))
      return { error: `Repeats: ${key} is not supported (only FREQ, INTERVAL, BYDAY, COUNT and UNTIL)` };
  const freq = parts.get('FREQ');
  if (freq !== 'WEEKLY' && freq !== 'MONTHLY') return { error: 'Events repeat weekly or monthly: FREQ must be WEEKLY or MONTHLY' };
  const rule: RecurrenceRule = { freq, interval: 1, byDay: [] };
  const weekStart = parts.get('WKST');
  if (weekStart !== undefined) {
    const weekday = WEEKDAY_CODES.indexOf(weekStart as (typeof WEEKDAY_CODES)[number]);
    if (weekday < 0) return { error: 'WKST must be a day such as MO or SU' };
    if (weekday !== 1) rule.weekStart = weekday;
  }
  const interval = parts.get('INTERVAL');
  if (interval !== undefined) {
    if (!/^\d+$/u.test(interval) || Number(interval) < 1 || Number(interval) > RECURRENCE_MAX_INTERVAL)
      return { error: `INTERVAL must be a whole number from 1 to ${RECURRENCE_MAX_INTERVAL}` };
    rule.interval = Number(interval);
  }
  const byDay = parts.get('BYDAY');
  if (byDay !== undefined) {
    for (const item of byDay.split(',')) {
      const match = BYDAY_VALUE.exec(item);
      if (!match) return { error: `BYDAY must list days such as MO,WE (monthly also 2TU or -1FR): ${item} is not one` };
      const weekday = WEEKDAY_CODES.indexOf(match[2] as (typeof WEEKDAY_CODES)[number]);
      if (match[1] !== undefined) {
        const nth = Number(match[1]);
        if (freq === 'WEEKLY') return { error: 'A weekly rule lists plain days (MO, TU …): numbered days such as 2TU are monthly' };
        if (nth === 0 || nth < -5 || nth > 5) return { error: `BYDAY counts days from 1 to 5, or −1 to −5 from the month’s end: ${item}` };
        if (rule.byDay.some((day) => day.weekday === weekday && day.nth === nth)) continue;
        rule.byDay.push({ weekday, nth });
      } else if (!rule.byDay.some((day) => day.weekday === weekday && day.nth === undefined)) rule.byDay.push({ weekday });
    }
  }
  const count = parts.get('COUNT');
  const until = parts.get('UNTIL');
  if (count !== undefined && until !== undefined)
    return { error: 'A repeat ends after a number of times (COUNT) or on a date (UNTIL), not both' };
  if (count !== undefined) {
    if (!/^\d+$/u.test(count) || Number(count) < 1 || Number(count) > RECURRENCE_MAX_COUNT)
      return { error: `COUNT must be a whole number from 1 to ${RECURRENCE_MAX_COUNT}` };
    rule.count = Number(count);
  }
  if (until !== undefined) {
    const match = UNTIL_VALUE.exec(until);
    const [, y, m, d, hh, mm, ss, z] = match ?? [];
    const day = `${y}-${m}-${d}`;
    const valid = match && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).getUTCDate() === Number(d);
    if (!valid || (hh !== undefined && z !== 'Z'))
      return { error: 'UNTIL must be a date written YYYYMMDD, or a UTC time written YYYYMMDDTHHMMSSZ' };
    rule.until = hh === undefined ? day : new Date(`${day}T${hh}:${mm}:${ss}Z`).toISOString();
  }
  return { rule };
}

/** Whether a rule is one the site can read (the form's and the API's check). */
export const isRecurrenceRule = (text: string) => 'rule' in parseRecurrenceRule(text);

/** The rule as the site writes it (and the `.ics` carries it): parts in a fixed order, UNTIL in UTC for a timed event. */
export function formatRecurrenceRule(rule: RecurrenceRule, series?: { allDay: boolean; timeZone: string }): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.byDay.length > 0) parts.push(`BYDAY=${rule.byDay.map((day) => `${day.nth ?? ''}${WEEKDAY_CODES[day.weekday]}`).join(',')}`);
  if (rule.weekStart !== undefined) parts.push(`WKST=${WEEKDAY_CODES[rule.weekStart]}`);
  if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`);
  if (rule.until !== undefined) {
    if (series?.allDay) parts.push(`UNTIL=${rule.until.slice(0, 10).replace(/-/gu, '')}`);
    else if (rule.until.length === 10 && !series) parts.push(`UNTIL=${rule.until.replace(/-/gu, '')}`);
    else {
      const instant = rule.until.length === 10 ? new Date(untilBound(rule.until, series!.timeZone)).toISOString() : rule.until;
      parts.push(`UNTIL=${instant.replace(/[-:]/gu, '').replace(/\.\d{3}/u, '')}`);
    }
  }
  return parts.join(';');
}

/** The last instant of `day` in `zone`: a date-only UNTIL keeps that whole day. */
export function untilBound(until: string, zone: string): number {
  if (until.length !== 10) return Date.parse(until);
  const [year, month, day] = until.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  return (
    fromWallClock(
      { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0, second: 0 },
      zone,
    ) - 1
  );
}

// ——— expansion ———

const DAY_MS = 86_400_000;
/** Day number of a calendar date (days since 1970-01-01), so weeks and weekdays are plain arithmetic. */
const dayNumber = (year: number, month: number, day: number) => Math.floor(Date.UTC(year, month - 1, day) / DAY_MS);
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const weekdayOf = (days: number) => (((days + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
/** Monday-first position of a weekday (RFC 5545's default WKST=MO). */
const mondayFirst = (weekday: number) => (weekday + 6) % 7;

/** The nth `weekday` of a month (negative: from its end), or null when the month has none. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): number | null {
  const first = dayNumber(year, month, 1);
  const length = daysInMonth(year, month);
  if (nth > 0) {
    const date = 1 + ((weekday - weekdayOf(first) + 7) % 7) + (nth - 1) * 7;
    return date <= length ? first + date - 1 : null;
  }
  const last = first + length - 1;
  const date = length - ((weekdayOf(last) - weekday + 7) % 7) + (nth + 1) * 7;
  return date >= 1 ? first + date - 1 : null;
}

/** The rule's days (as day numbers, ascending) from the start's week or month on, until `lastDay`. */
function* ruleDays(rule: RecurrenceRule, start: Wall, lastDay: number): Generator<number> {
  const startDay = dayNumber(start.year, start.month, start.day);
  if (rule.freq === 'WEEKLY') {
    const weekStart = rule.weekStart ?? 1;
    const fromWeekStart = (weekday: number) => (weekday - weekStart + 7) % 7;
    const offsets = (rule.byDay.length > 0 ? rule.byDay.map((day) => day.weekday) : [weekdayOf(startDay)])
      .map(fromWeekStart)
      .sort((a, b) => a - b);
    for (let first = startDay - fromWeekStart(weekdayOf(startDay)); first <= lastDay; first += 7 * rule.interval)
      for (const offset of offsets) yield first + offset;
    return;
  }
  for (let index = 0; ; index += rule.interval) {
    const year = start.year + Math.floor((start.month - 1 + index) / 12);
    const month = ((start.month - 1 + index) % 12) + 1;
    if (dayNumber(year, month, 1) > lastDay) return;
    const days = new Set<number>();
    if (rule.byDay.length === 0) {
      if (start.day <= daysInMonth(year, month)) days.add(dayNumber(year, month, start.day));
    } else
      for (const { weekday, nth } of rule.byDay) {
        if (nth !== undefined) {
          const day = nthWeekday(year, month, weekday, nth);
          if (day !== null) days.add(day);
        } else
          for (let day = nthWeekday(year, month, weekday, 1)!; day < dayNumber(year, month, 1) + daysInMonth(year, month); day += 7)
            days.add(day);
      }
    yield* [...days].sort((a, b) => a - b);
  }
}

export interface Series {
  startDate: string;
  endDate: string;
  allDay: boolean;
  recurrenceRule: string;
}

export interface OccurrenceWindow {
  /** Occurrences starting at or after this instant (ISO). */
  from?: string;
  /** …and before this one. */
  to?: string;
  /** At most this many. */
  limit?: number;
}

/** The zone a series repeats in: the site's for a timed event, UTC for an all-day one (its dates are read in UTC). */
export const seriesZone = (series: Pick<Series, 'allDay'>, timeZone: string) => (series.allDay ? 'UTC' : timeZone);

/** The rule of a recurring event, or null for a one-off (or a rule the site cannot read, as an old record might hold). */
export function ruleOf(series: Pick<Series, 'recurrenceRule'>): RecurrenceRule | null {
  if (!series.recurrenceRule) return null;
  const parsed = parseRecurrenceRule(series.recurrenceRule);
  return 'rule' in parsed ? parsed.rule : null;
}

/**
 * The starts (ISO) of a series' occurrences within the window, in order; a one-off event has its start as its only
 * occurrence. Never more than RECURRENCE_MAX_COUNT, never later than RECURRENCE_MAX_YEARS after the start.
 */
export function occurrenceStarts(series: Series, timeZone: string, window: OccurrenceWindow = {}): string[] {
  const startMs = Date.parse(series.startDate);
  const from = window.from ? Date.parse(window.from) : -Infinity;
  const to = window.to ? Date.parse(window.to) : Infinity;
  const limit = window.limit ?? Infinity;
  const rule = ruleOf(series);
  if (!rule) return startMs >= from && startMs < to && limit > 0 ? [new Date(startMs).toISOString()] : [];
  const zone = seriesZone(series, timeZone);
  const start = wallClock(startMs, zone);
  const horizon = fromWallClock({ ...start, year: start.year + RECURRENCE_MAX_YEARS }, zone);
  const last = Math.min(horizon, rule.until ? untilBound(rule.until, zone) : Infinity, to - 1);
  const lastWall = wallClock(Math.max(last, startMs), zone);
  const count = Math.min(rule.count ?? Infinity, RECURRENCE_MAX_COUNT);
  const found: string[] = [];
  let made = 0;
  for (const days of ruleDays(rule, start, dayNumber(lastWall.year, lastWall.month, lastWall.day))) {
    const date = new Date(days * DAY_MS);
    const instant = fromWallClock(
      {
        year: date.getUTCFullYear(),
        month: date.getUTCMonth() + 1,
        day: date.getUTCDate(),
        hour: start.hour,
        minute: start.minute,
        second: start.second,
      },
      zone,
    );
    if (instant < startMs) continue;
    if (instant > last || made >= count) break;
    made++;
    if (instant < from) continue;
    found.push(new Date(instant).toISOString());
    if (found.length >= limit) break;
  }
  return found;
}

/** Whether `instant` starts one of the series' occurrences; the answer is the occurrence's start as the site writes it. */
export function occurrenceAt(series: Series, timeZone: string, instant: string): string | null {
  const time = Date.parse(instant);
  if (Number.isNaN(time)) return null;
  const iso = new Date(time).toISOString();
  return occurrenceStarts(series, timeZone, { from: iso, to: new Date(time + 1).toISOString(), limit: 1 })[0] ?? null;
}

/** The last occurrence's start (ISO): how far a series reaches in the calendar's index. */
export function seriesEnd(series: Series, timeZone: string): string {
  const rule = ruleOf(series);
  if (!rule) return new Date(series.startDate).toISOString();
  const starts = occurrenceStarts(series, timeZone);
  return starts.at(-1) ?? new Date(series.startDate).toISOString();
}

/**
 * A zone-free upper bound of a series' last start (ISO), for the calendar's index: a read model cannot know the site's
 * zone, and the occurrences themselves are made when read. Within a day of UNTIL, of COUNT weeks, of the 2-year horizon.
 */
export function seriesReach(series: Pick<Series, 'startDate' | 'recurrenceRule'>): string {
  const start = Date.parse(series.startDate);
  const rule = ruleOf(series);
  if (!rule) return new Date(start).toISOString();
  let bound = start + (RECURRENCE_MAX_YEARS * 366 + 2) * DAY_MS;
  if (rule.until) bound = Math.min(bound, Date.parse(rule.until.length === 10 ? `${rule.until}T00:00:00Z` : rule.until) + 2 * DAY_MS);
  if (rule.count !== undefined && rule.freq === 'WEEKLY') bound = Math.min(bound, start + (rule.count * rule.interval * 7 + 2) * DAY_MS);
  return new Date(Math.max(bound, start)).toISOString();
}

/**
 * What is wrong with a series' rule, as the form's field says it; null when nothing is. The start must be one of the
 * rule's days (RFC 5545 leaves an unsynchronised start undefined, and calendar apps differ), and UNTIL not before it.
 */
export function recurrenceProblem(series: Series, timeZone: string): string | null {
  if (!series.recurrenceRule) return null;
  const parsed = parseRecurrenceRule(series.recurrenceRule);
  if ('error' in parsed) return parsed.error;
  const { rule } = parsed;
  const zone = seriesZone(series, timeZone);
  const start = Date.parse(series.startDate);
  if (rule.until && untilBound(rule.until, zone) < start) return 'The repeat must end on or after the start date';
  if (occurrenceStarts(series, timeZone, { limit: 1 })[0] !== new Date(start).toISOString()) {
    const wall = wallClock(start, zone);
    const weekday = WEEKDAY_NAMES[weekdayOf(dayNumber(wall.year, wall.month, wall.day))];
    return `The start date (a ${weekday}) must be one of the days the event repeats on`;
  }
  return null;
}

// ——— words ———

const listed = (names: string[]) => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);
const ordinalDay = (day: number) =>
  `${day}${day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th'}`;

/** A rule in words, e.g. "Every 2 weeks on Tuesday and Thursday, 10 times" or "Monthly on the second Tuesday, until March 1, 2027". */
export function describeRecurrence(rule: RecurrenceRule, startDay?: { weekday: number; day: number }): string {
  const unit = rule.freq === 'WEEKLY' ? 'week' : 'month';
  const every = rule.interval === 1 ? (rule.freq === 'WEEKLY' ? 'Weekly' : 'Monthly') : `Every ${rule.interval} ${unit}s`;
  const days =
    rule.byDay.length > 0
      ? listed(
          [...rule.byDay]
            .sort((a, b) => (a.nth ?? 0) - (b.nth ?? 0) || mondayFirst(a.weekday) - mondayFirst(b.weekday))
            .map((day) =>
              day.nth === undefined
                ? `${rule.freq === 'MONTHLY' ? 'every ' : ''}${WEEKDAY_NAMES[day.weekday]}`
                : `the ${NTH_NAMES[day.nth] ?? `${day.nth < 0 ? `${-day.nth}th from last` : `${day.nth}th`}`} ${WEEKDAY_NAMES[day.weekday]}`,
            ),
        )
      : startDay
        ? rule.freq === 'WEEKLY'
          ? WEEKDAY_NAMES[startDay.weekday]!
          : `the ${ordinalDay(startDay.day)}`
        : '';
  const end =
    rule.count !== undefined
      ? `, ${rule.count} time${rule.count === 1 ? '' : 's'}`
      : rule.until !== undefined
        ? `, until ${new Date(`${rule.until.slice(0, 10)}T12:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}`
        : '';
  return `${every}${days ? ` on ${days}` : ''}${end}`;
}

/** A series' rule in words, reading the start's weekday and date in its zone; null for a one-off. */
export function describeSeries(series: Series, timeZone: string): string | null {
  const rule = ruleOf(series);
  if (!rule) return null;
  const wall = wallClock(Date.parse(series.startDate), seriesZone(series, timeZone));
  return describeRecurrence(rule, { weekday: weekdayOf(dayNumber(wall.year, wall.month, wall.day)), day: wall.day });
}

// ——— the form's control ———

/** What the form's "Repeats" control holds; `recurrenceRuleOf` makes the rule, `repeatOf` reads one back. */
export interface Repeat {
  frequency: 'never' | 'weekly' | 'monthly';
  interval: number;
  /** Weekly: the days (0 = Sunday). */
  weekdays: number[];
  /** Monthly: on the nth weekday of the start (`nth`, −1 = last), or on the start's date. */
  monthlyBy: 'weekday' | 'date';
  ends: 'count' | 'until' | 'never';
  count: number;
  /** `YYYY-MM-DD`. */
  until: DayKey;
}

/** Where the start falls: its weekday, and which of that weekday in its month (5 → counted as −1, the last). */
export function startPosition(startDay: DayKey): { weekday: number; nth: number; last: boolean } {
  const [year, month, day] = startDay.split('-').map(Number) as [number, number, number];
  const weekday = weekdayOf(dayNumber(year, month, day));
  return { weekday, nth: Math.ceil(day / 7), last: day + 7 > daysInMonth(year, month) };
}

/** The rule the control describes for a start on `startDay` ('' for never). */
export function recurrenceRuleOf(repeat: Repeat, startDay: DayKey): string {
  if (repeat.frequency === 'never' || !/^\d{4}-\d{2}-\d{2}$/u.test(startDay)) return '';
  const position = startPosition(startDay);
  const rule: RecurrenceRule = {
    freq: repeat.frequency === 'weekly' ? 'WEEKLY' : 'MONTHLY',
    interval: Math.max(1, Math.min(RECURRENCE_MAX_INTERVAL, Math.round(repeat.interval) || 1)),
    byDay:
      repeat.frequency === 'weekly'
        ? [...new Set([position.weekday, ...repeat.weekdays])]
            .sort((a, b) => mondayFirst(a) - mondayFirst(b))
            .map((weekday) => ({ weekday }))
        : repeat.monthlyBy === 'weekday'
          ? [{ weekday: position.weekday, nth: position.nth === 5 || (position.last && position.nth > 4) ? -1 : position.nth }]
          : [],
  };
  if (repeat.ends === 'count') rule.count = Math.max(1, Math.min(RECURRENCE_MAX_COUNT, Math.round(repeat.count) || 1));
  if (repeat.ends === 'until' && repeat.until) rule.until = repeat.until;
  return formatRecurrenceRule(rule);
}

export const NO_REPEAT: Repeat = {
  frequency: 'never',
  interval: 1,
  weekdays: [],
  monthlyBy: 'weekday',
  ends: 'count',
  count: 10,
  until: '',
};

/** The control's state for a stored rule (an unreadable or empty one: never). */
export function repeatOf(text: string): Repeat {
  const rule = text ? ruleOf({ recurrenceRule: text }) : null;
  if (!rule) return NO_REPEAT;
  return {
    frequency: rule.freq === 'WEEKLY' ? 'weekly' : 'monthly',
    interval: rule.interval,
    weekdays: rule.freq === 'WEEKLY' ? rule.byDay.map((day) => day.weekday) : [],
    monthlyBy: rule.freq === 'MONTHLY' && rule.byDay.length === 0 ? 'date' : 'weekday',
    ends: rule.count !== undefined ? 'count' : rule.until !== undefined ? 'until' : 'never',
    count: rule.count ?? 10,
    until: rule.until?.slice(0, 10) ?? '',
  };
}
