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

/** Each later occurrence's counts, by its start (occurrenceField). */
export type OccurrenceCounts = Record<string, AttendeeCounts & { waitlistCount: number }>;

/** What the calendar's entry holds of a series: that it recurs, how far it may reach (its index), each occurrence's counts. */
export function seriesEntry(details: Series & { occurrences?: OccurrenceSeats | undefined }): {
  recurs: boolean;
  reach: string;
  occurrenceCounts: OccurrenceCounts;
} {
  const occurrenceCounts: OccurrenceCounts = {};
  for (const [start, seats] of Object.entries(details.occurrences ?? {}))
    occurrenceCounts[start] = { ...attendeeCounts(Object.values(seats.rsvps)), waitlistCount: seats.waiting.length };
  return { recurs: ruleOf(details) !== null, reach: seriesReach(details), occurrenceCounts };
}
