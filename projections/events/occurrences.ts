/**
 * Occurrences of recurring events as the calendar reads them (docs/domain/events.md#recurring-events). The read models
 * hold one document per event: a series is never materialised. Its occurrences are made when read, only within the
 * window asked for (shared/events/recurrence.ts), each as the series' document moved to its start, with its own
 * answers and counts: `occurrences` in the details (who answered each later occurrence), `occurrenceCounts` in the
 * calendar's entry. The first occurrence keeps the event's own `rsvps`, `waiting` and `attendees`, so a one-off event
 * and the first occurrence of a series read as before.
 */
import type { Collection, Filter } from '../../platform/document-store/port';
import { encodeCursor, findPage, type Page } from '../../platform/paging';
import { fail } from '../../shared/domain';
import type { MyRsvpStatus } from '../../shared/events/constants';
import { attendeeCounts } from '../../shared/events/event-stream';
import { occurrenceAt, occurrenceStarts, ruleOf } from '../../shared/events/recurrence';
import { occurrenceField } from './series';
import type { CalendarEventDocument, EventDetailsDocument } from './events';

/** Who answered one later occurrence of a series, with when: its organiser's attendee list. */
export function occurrenceAnswers(event: EventDetailsDocument, start: string) {
  const seats = event.occurrences?.[occurrenceField(start)] ?? { rsvps: {}, waiting: [] };
  const at = (memberId: string) => seats.answeredAt?.[memberId] ?? event.createdAt;
  return [
    ...Object.entries(seats.rsvps).map(([memberId, status]) => ({ memberId, status: status as MyRsvpStatus, at: at(memberId) })),
    ...seats.waiting.map((memberId) => ({ memberId, status: 'waitlisted' as MyRsvpStatus, at: at(memberId) })),
  ];
}
type EventDocument = CalendarEventDocument | EventDetailsDocument;
const NOBODY = { attending: 0, maybe: 0, notAttending: 0 };

/** The series' document as one of its occurrences: moved to its start, with that occurrence's answers and counts. */
export function atOccurrence<T extends EventDocument>(event: T, start: string): T {
  const first = new Date(event.startDate).toISOString();
  if (!ruleOf(event)) return event;
  // Cancelled alone: listed as cancelled. Moved alone: at its new start and end, keeping its answers.
  const change = event.changes?.[occurrenceField(start)];
  const own = change ? (change.cancelled ? { isCancelled: true } : { startDate: change.startDate, endDate: change.endDate }) : {};
  if (start === first) return { ...event, occurrenceStart: start, ...own };
  const duration = Date.parse(event.endDate) - Date.parse(event.startDate);
  const moved = {
    ...event,
    startDate: start,
    endDate: new Date(Date.parse(start) + duration).toISOString(),
    occurrenceStart: start,
    ...own,
  };
  if ('rsvps' in event) {
    const seats = event.occurrences?.[occurrenceField(start)] ?? { rsvps: {}, waiting: [] };
    return {
      ...moved,
      rsvps: seats.rsvps,
      waiting: seats.waiting,
      attendees: attendeeCounts(Object.values(seats.rsvps)),
      waitlistCount: seats.waiting.length,
    };
  }
  const { waitlistCount = 0, ...counts } = event.occurrenceCounts?.[occurrenceField(start)] ?? { ...NOBODY, waitlistCount: 0 };
  return { ...moved, attendees: counts, waitlistCount };
}

/**
 * The occurrence a caller names (`occurrence`, its start as ISO), as the event's stream keys it: undefined for none or
 * the first (a one-off event's only one); a 400 naming the field for a start the series does not have.
 */
export function occurrenceKey(event: EventDocument, timeZone: string, occurrence: string | undefined): string | undefined {
  if (!occurrence) return undefined;
  const start = occurrenceAt(event, timeZone, occurrence);
  if (!start)
    throw fail.invalid('This event has no occurrence starting then', { occurrence: 'This event has no occurrence starting then' });
  return start === new Date(event.startDate).toISOString() ? undefined : start;
}

/** Whether the series still has a date starting at `start` (an edit of its start or rule may have taken it away). */
export const hasOccurrence = (event: EventDocument, timeZone: string, start: string) =>
  occurrenceAt(event, timeZone, start) === new Date(start).toISOString();

/**
 * The series' occurrences that start within a window, each as its own document, by start: a date moved alone counts
 * at its new start (moved out of the window, it is not listed; moved into it from elsewhere, it is).
 */
export function occurrencesOf<T extends EventDocument>(
  event: T,
  timeZone: string,
  window: { from?: string | undefined; to?: string | undefined; limit?: number | undefined },
): T[] {
  const moved = Object.entries(event.changes ?? {}).flatMap(([field, change]) =>
    change.cancelled ? [] : [{ key: new Date(field).toISOString(), startDate: new Date(change.startDate).toISOString() }],
  );
  if (moved.length === 0) return occurrenceStarts(event, timeZone, window).map((start) => atOccurrence(event, start));
  const within = (start: string) => (!window.from || start >= window.from) && (!window.to || start < window.to);
  const movedKeys = new Set(moved.map((one) => one.key));
  const limit = window.limit === undefined ? undefined : window.limit + moved.length;
  const kept = occurrenceStarts(event, timeZone, { ...window, ...(limit !== undefined ? { limit } : {}) }).filter(
    (start) => !movedKeys.has(start),
  );
  // A moved date counts where it now is, if the series still has it.
  const arrived = moved.filter((one) => within(one.startDate) && occurrenceAt(event, timeZone, one.key) === one.key).map((one) => one.key);
  const all = [...kept, ...arrived].map((start) => atOccurrence(event, start)).sort((a, b) => a.startDate.localeCompare(b.startDate));
  return window.limit === undefined ? all : all.slice(0, window.limit);
}

/** The most series one list reads: far more than a community's calendar runs at once. */
export const SERIES_MAX = 200;
const START_ORDER = { startDate: 1, _id: 1 } as const;
const byStart = (a: EventDocument, b: EventDocument) =>
  a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : a._id < b._id ? -1 : a._id > b._id ? 1 : 0;

/** Where a page's cursor stands (start and id), as platform/paging writes it; findPage has refused a forged one already. */
function cursorPosition(cursor: string | undefined): { startDate: string; _id: string } | null {
  if (!cursor) return null;
  const position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { startDate: string; _id: string };
  return position;
}

/**
 * One page of the calendar by start, one-off events and the occurrences of series merged. `singles` matches the
 * one-off events (and the dates asked for), `series` the series that may reach into the window; each series gives at
 * most a page of occurrences, so a page costs the same however long its series run.
 */
export async function occurrencePage(
  calendar: Collection<CalendarEventDocument>,
  filters: { singles: Filter; series: Filter },
  request: { limit: number; cursor?: string | undefined; from?: string | undefined; to?: string | undefined },
  timeZone: string,
): Promise<Page<CalendarEventDocument>> {
  const singles = await findPage(calendar, filters.singles, START_ORDER, request);
  const position = cursorPosition(request.cursor);
  const from = [request.from, position?.startDate]
    .filter((value): value is string => Boolean(value))
    .sort()
    .at(-1);
  const series = await calendar.find(
    { $and: [filters.series, ...(from ? [{ reach: { $gte: from } }] : [])] },
    { sort: START_ORDER, limit: SERIES_MAX },
  );
  const occurrences = series
    .flatMap((event) => occurrencesOf(event, timeZone, { from, to: request.to, limit: request.limit + 1 }))
    .filter((occurrence) => !position || byStart(occurrence, { ...occurrence, ...position }) > 0);
  const merged = [...singles.items, ...occurrences].sort(byStart);
  const items = merged.slice(0, request.limit);
  const more = merged.length > request.limit || singles.nextCursor !== null;
  return { items, nextCursor: more && items.length > 0 ? encodeCursor(items.at(-1)!, START_ORDER) : null };
}
