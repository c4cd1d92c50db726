/**
 * `event_stats` (EventStats): the management page's counts, one document, kept from `event_stats_entries`: each
 * event as the counts see it, from its own stream. A change to an event moves the counts by the difference it makes
 * to its entry (never an RSVP, which costs no read here); the counts are written before the entry, so a replay of a
 * half-applied event finds the entry as it was, and the counts already past it. Staff are told when the pending
 * count moves.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { CalendarEventEvent } from '../../shared/events/event-stream';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { ROOMS } from '../../shared/socket-messages';
import type { EventStatus } from './events';

export const EVENT_STATS = 'event_stats';
export const EVENT_STATS_ENTRIES = 'event_stats_entries';
const STATS_ID = 'all';

export type EventStatsDocument = Positioned & {
  _id: string;
  total: number;
  pending: number;
  approved: number;
  featured: number;
  public: number;
  private: number;
};
export type EventStats = Omit<EventStatsDocument, '_id' | '_position'>;

/** One event as the counts see it; its organizer's, so an erasure that removes their events takes them from the counts. */
type Entry = { organizerId: string; status: EventStatus; isFeatured: boolean; isPublic: boolean; revision?: boolean };
type EntryDocument = Positioned & Entry & { _id: string };

const eventStats = (store: DocumentStore) => store.collection<EventStatsDocument>(EVENT_STATS);
const entries = (store: DocumentStore) => store.collection<EntryDocument>(EVENT_STATS_ENTRIES);

export async function readEventStats(store: DocumentStore): Promise<EventStats> {
  const stats = await eventStats(store).findOne({ _id: STATS_ID });
  return {
    total: stats?.total ?? 0,
    pending: stats?.pending ?? 0,
    approved: stats?.approved ?? 0,
    featured: stats?.featured ?? 0,
    public: stats?.public ?? 0,
    private: stats?.private ?? 0,
  };
}

/** What changes an event as the counts see it; RSVPs do not. */
const COUNTED = new Set<CalendarEventEvent['type']>([
  'EventScheduled',
  'EventEdited',
  'EventApproved',
  'EventReturnedToModeration',
  'EventRejected',
  'EventFeatured',
  'EventUnfeatured',
  'EventDeleted',
  'EventCancelled',
  'EventRevisionSubmitted',
  'EventRevisionApproved',
  'EventRevisionRejected',
]);

/** The entry after one event of its stream. */
function entryAfter(entry: Entry | null, event: CalendarEventEvent): Entry | null {
  if (event.type === 'EventScheduled') {
    const { organizerId, approved, fields } = event.data;
    return { organizerId, status: approved ? 'approved' : 'pending', isFeatured: false, isPublic: fields.isPublic };
  }
  if (!entry) return null;
  switch (event.type) {
    case 'EventEdited':
      return { ...entry, isPublic: event.data.fields.isPublic };
    case 'EventApproved':
      return { ...entry, status: 'approved' };
    case 'EventReturnedToModeration':
      return { ...entry, status: 'pending' };
    case 'EventRejected':
      return { ...entry, status: 'rejected' };
    case 'EventFeatured':
      return { ...entry, isFeatured: true };
    case 'EventUnfeatured':
      return { ...entry, isFeatured: false };
    case 'EventDeleted':
      return null;
    // An organiser's edit of an approved event waits for staff as the pending ones do.
    case 'EventRevisionSubmitted':
      return { ...entry, revision: true };
    case 'EventRevisionApproved':
    case 'EventRevisionRejected':
      return { ...entry, revision: false };
    // A cancelled event is never featured, and no edit of it waits.
    case 'EventCancelled':
      return { ...entry, revision: false, isFeatured: false };
    default:
      return entry;
  }
}

const countsOf = (entry: Entry | null) => ({
  total: entry ? 1 : 0,
  pending: entry?.status === 'pending' || entry?.revision ? 1 : 0,
  approved: entry?.status === 'approved' ? 1 : 0,
  featured: entry?.isFeatured ? 1 : 0,
  public: entry?.isPublic ? 1 : 0,
});

/** Moves the counts by what these entries' changes make, in one write (a second write at the same position would be skipped). */
async function count(changes: [before: Entry | null, after: Entry | null][], at: number, { store, notify, live }: ProjectionContext) {
  const delta = countsOf(null);
  for (const [before, after] of changes)
    for (const key of Object.keys(delta) as (keyof typeof delta)[]) delta[key] += countsOf(after)[key] - countsOf(before)[key];
  if (Object.values(delta).every((moved) => moved === 0)) return;
  await applyToDocument(eventStats(store), STATS_ID, at, (current) => {
    const total = (current?.total ?? 0) + delta.total;
    const open = (current?.public ?? 0) + delta.public;
    return {
      total,
      pending: (current?.pending ?? 0) + delta.pending,
      approved: (current?.approved ?? 0) + delta.approved,
      featured: (current?.featured ?? 0) + delta.featured,
      public: open,
      private: total - open,
    };
  });
  if (live && delta.pending !== 0)
    notify({ message: 'pending:changed', rooms: [ROOMS.staff], payload: { events: (await readEventStats(store)).pending } });
}

export const eventStatsProjection: Projection = {
  name: 'event-stats',
  // 3: organisers' edits waiting for staff count as pending.
  version: 3,
  collections: [EVENT_STATS, EVENT_STATS_ENTRIES],
  async setup(store) {
    await entries(store).createIndex({ organizerId: 1 });
  },
  async apply(recorded, context) {
    const { store } = context;
    const at = recorded.position;
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member' && typed.event.type === 'MemberErased' && typed.event.data.content === 'removed') {
      // Their events left the calendar: they leave the counts.
      const organised = await entries(store).find({ organizerId: typed.id });
      await count(
        organised.map((entry) => [entry, null]),
        at,
        context,
      );
      for (const { _id } of organised) await applyToDocument(entries(store), _id, at, () => null);
      return;
    }
    if (typed?.stream !== 'event' || !COUNTED.has(typed.event.type)) return;
    const current = await entries(store).findOne({ _id: typed.id });
    if (current && current._position >= at) return;
    const next = entryAfter(current, typed.event);
    if (!current && !next) return;
    await count([[current, next]], at, context);
    await applyToDocument(entries(store), typed.id, at, () => next);
  },
};
