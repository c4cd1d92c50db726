/**
 * `calendar_feeds` (CalendarFeeds): each member's current private calendar URL, by the SHA-256 of its token, so the
 * feed is found from the URL alone and a reset URL is forgotten at once; and whether they get event reminders. An
 * erased member's goes.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';

export const CALENDAR_FEEDS = 'calendar_feeds';

export type CalendarFeedDocument = Positioned & { _id: string; generation: number; tokenHash: string | null; reminders: boolean };

export const calendarFeeds = (store: DocumentStore) => store.collection<CalendarFeedDocument>(CALENDAR_FEEDS);

export const calendarFeedsProjection: Projection = {
  name: 'calendar-feeds',
  version: 1,
  collections: [CALENDAR_FEEDS],
  async setup(store) {
    await calendarFeeds(store).createIndex({ tokenHash: 1 });
  },
  async apply(recorded, { store }) {
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member' && typed.event.type === 'MemberErased')
      return applyToDocument(calendarFeeds(store), typed.id, recorded.position, () => null);
    if (typed?.stream !== 'calendar') return;
    const { event } = typed;
    await applyToDocument(calendarFeeds(store), event.data.memberId, recorded.position, (current) => {
      const kept = { generation: current?.generation ?? 0, tokenHash: current?.tokenHash ?? null, reminders: current?.reminders ?? true };
      return event.type === 'CalendarFeedIssued'
        ? { ...kept, generation: event.data.generation, tokenHash: event.data.tokenHash }
        : { ...kept, reminders: event.data.enabled };
    });
  },
};
