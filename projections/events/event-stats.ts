/**
 * `event_stats` (EventStats): the management page's counts, one document,
 * recounted from the calendar whenever an event's approval, featuring,
 * visibility or existence may have changed (never for an RSVP). A recount, not
 * increments, so a replay after a crash cannot count anything twice. Staff are
 * told when the pending count moves, with the feed's pending count beside it.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { ROOMS } from '../../shared/socket-messages';
import { calendarEvents } from './events';

export const EVENT_STATS = 'event_stats';
/** The newsfeed's posts read model, whose pending posts share the sidebar's badge notice. */
const FEED_POSTS = 'feed_posts';
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

const eventStats = (store: DocumentStore) => store.collection<EventStatsDocument>(EVENT_STATS);

export async function readEventStats(store: DocumentStore): Promise<EventStats> {
  const stats = await eventStats(store).findOne({ _id: STATS_ID });
  return { total: stats?.total ?? 0, pending: stats?.pending ?? 0, approved: stats?.approved ?? 0, featured: stats?.featured ?? 0, public: stats?.public ?? 0, private: stats?.private ?? 0 };
}

export const eventStatsProjection: Projection = {
  name: 'event-stats',
  version: 1,
  collections: [EVENT_STATS],
  async apply(recorded, { store, notify }) {
    const typed = typedEvent(recorded);
    if (typed?.stream !== 'event' || typed.event.type === 'RsvpChanged' || typed.event.type === 'RsvpRemoved') return;
    const calendar = calendarEvents(store);
    const [total, pending, approved, featured, open] = await Promise.all([
      calendar.countDocuments({}),
      calendar.countDocuments({ status: 'pending' }),
      calendar.countDocuments({ status: 'approved' }),
      calendar.countDocuments({ isFeatured: true }),
      calendar.countDocuments({ isPublic: true }),
    ]);
    const before = await readEventStats(store);
    await applyToDocument(eventStats(store), STATS_ID, recorded.position, () => ({ total, pending, approved, featured, public: open, private: total - open }));
    if (before.pending !== pending) {
      const posts = await store.collection(FEED_POSTS).countDocuments({ status: 'pending' });
      notify({ message: 'pending:changed', rooms: [ROOMS.staff], payload: { events: pending, posts } });
    }
  },
};
