/**
 * What the events' read models hold of a recurring series (docs/domain/events.md#recurring-events): each later
 * occurrence's answers in the details, and in the calendar's entry that it recurs, how far it may reach and each
 * occurrence's counts. Reading them is projections/events/occurrences.ts.
 */
import type { RsvpStatus } from '../../shared/events/constants';
import { attendeeCounts } from '../../shared/events/event-stream';
import { ruleOf, seriesReach, type Series } from '../../shared/events/recurrence';

type AttendeeCounts = { attending: number; maybe: number; notAttending: number };

/** An occurrence's field in `occurrences` and `occurrenceCounts`: its start without the milliseconds (a field name holds no dot). */
export const occurrenceField = (start: string) => new Date(start).toISOString().replace(/\.\d{3}Z$/u, 'Z');

/** Who answered each later occurrence of a series, by its start (occurrenceField). */
export type OccurrenceSeats = Record<
  string,
  {
    rsvps: Record<string, RsvpStatus>;
    waiting: string[];
    /** When each answered (ISO). */
    answeredAt?: Record<string, string>;
  }
>;

/** What became of one date of a series: cancelled (with why), or moved to a new start and end (ISO). */
export type OccurrenceChangeRecord = { cancelled: true; reason?: string } | { cancelled: false; startDate: string; endDate: string };
/** A series' dates cancelled or moved alone, by their start as the series has it (occurrenceField). */
export type OccurrenceChanges = Record<string, OccurrenceChangeRecord>;

/** Each later occurrence's counts, by its start (occurrenceField). */
export type OccurrenceCounts = Record<string, AttendeeCounts & { waitlistCount: number }>;

/** What the calendar's entry holds of a series: that it recurs, how far it may reach (its index), each occurrence's counts. */
export function seriesEntry(details: Series & { occurrences?: OccurrenceSeats | undefined; changes?: OccurrenceChanges | undefined }): {
  recurs: boolean;
  reach: string;
  occurrenceCounts: OccurrenceCounts;
} {
  const occurrenceCounts: OccurrenceCounts = {};
  for (const [start, seats] of Object.entries(details.occurrences ?? {}))
    occurrenceCounts[start] = { ...attendeeCounts(Object.values(seats.rsvps)), waitlistCount: seats.waiting.length };
  // A date moved later than the rule reaches still shows in the calendar.
  const moved = Object.values(details.changes ?? {}).flatMap((change) => (change.cancelled ? [] : [change.startDate]));
  const reach = [seriesReach(details), ...moved].sort().at(-1)!;
  return { recurs: ruleOf(details) !== null, reach, occurrenceCounts };
}
