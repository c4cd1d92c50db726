/** Calendar events' read model: one document per event with organizer, RSVPs and counts. */
import type { DocumentStore } from '../../server/infrastructure/document-store/port';
import type { RecordedEvent } from '../../server/infrastructure/event-store/port';
import type { Role } from '../../shared/domain';
import type { CalendarEventEvent } from '../../shared/events/event-stream';
import type { RsvpStatus } from '../../shared/events/constants';
import type { EventFields } from '../../shared/events/schemas';
import { applyToDocument, type Positioned } from '../documents';
import { membersCollection } from '../members/members';
import type { Projection } from '../runner';

export const CALENDAR_EVENTS = 'calendar_events';

export type CalendarEventDocument = Positioned &
  EventFields & {
    _id: string;
    status: 'pending' | 'approved' | 'rejected';
    isApproved: boolean;
    isFeatured: boolean;
    organizerId: string;
    organizer: { firstName: string; lastName: string; email: string; role: Role; profileImageUrl: string | null };
    rsvps: Record<string, RsvpStatus>;
    /** Members with an RSVP, for "my events". */
    rsvpMembers: string[];
    attendees: { attending: number; maybe: number; notAttending: number };
    createdAt: string;
    updatedAt: string;
  };

export const calendarEvents = (store: DocumentStore) => store.collection<CalendarEventDocument>(CALENDAR_EVENTS);

function counts(rsvps: Record<string, RsvpStatus>) {
  const values = Object.values(rsvps);
  return { attending: values.filter((s) => s === 'attending').length, maybe: values.filter((s) => s === 'maybe').length, notAttending: values.filter((s) => s === 'not_attending').length };
}

const isPublicFor = (event: CalendarEventDocument | null) => Boolean(event && event.isApproved && event.isPublic);

export const eventsProjection: Projection = {
  name: 'events',
  collections: [CALENDAR_EVENTS],
  async setup(store) {
    await calendarEvents(store).createIndex({ status: 1, startDate: 1 });
  },
  async apply(recorded, { store, notify }) {
    if (!recorded.streamName.startsWith('event-')) return;
    const event = recorded as RecordedEvent & CalendarEventEvent;
    const id = recorded.streamName.slice('event-'.length);
    const events = calendarEvents(store);
    const before = await events.findOne({ _id: id });
    const change = (update: (doc: CalendarEventDocument) => Partial<CalendarEventDocument>) =>
      applyToDocument(events, id, recorded.position, (current) => (current ? { ...current, ...update(current) } : null));
    const at = (data: { at?: string }) => ({ updatedAt: data.at ?? recorded.createdAt.toISOString() });

    switch (event.type) {
      case 'EventScheduled': {
        const member = await membersCollection(store).findOne({ _id: event.data.organizerId });
        await applyToDocument(events, id, recorded.position, () => ({
          ...event.data.fields,
          status: event.data.approved ? ('approved' as const) : ('pending' as const),
          isApproved: event.data.approved,
          isFeatured: false,
          organizerId: event.data.organizerId,
          organizer: { firstName: member?.firstName ?? '', lastName: member?.lastName ?? '', email: member?.email ?? '', role: member?.role ?? 'member', profileImageUrl: member?.profileImageUrl ?? null },
          rsvps: {},
          rsvpMembers: [],
          attendees: { attending: 0, maybe: 0, notAttending: 0 },
          createdAt: event.data.scheduledAt,
          updatedAt: event.data.scheduledAt,
        }));
        break;
      }
      case 'EventEdited':
        await change(() => ({ ...event.data.fields, ...at(event.data) }));
        break;
      case 'EventApproved':
        await change(() => ({ status: 'approved', isApproved: true, ...at(event.data) }));
        break;
      case 'EventRejected':
        await change(() => ({ status: 'rejected', isApproved: false, ...at(event.data) }));
        break;
      case 'EventFeatured':
        await change(() => ({ isFeatured: true, ...at(event.data) }));
        break;
      case 'EventUnfeatured':
        await change(() => ({ isFeatured: false, ...at(event.data) }));
        break;
      case 'EventDeleted':
        await applyToDocument(events, id, recorded.position, () => null);
        break;
      case 'RsvpChanged':
      case 'RsvpRemoved':
        await change((doc) => {
          const rsvps = { ...doc.rsvps };
          if (event.type === 'RsvpChanged') rsvps[event.data.memberId] = event.data.status;
          else delete rsvps[event.data.memberId];
          return { rsvps, rsvpMembers: Object.keys(rsvps), attendees: counts(rsvps) };
        });
        break;
    }

    const after = await events.findOne({ _id: id });
    if (event.type === 'RsvpChanged' || event.type === 'RsvpRemoved') {
      if (after) notify({ message: 'rsvp:changed', rooms: isPublicFor(after) ? ['members', 'public'] : ['members'], payload: { eventId: id, ...after.attendees } });
      return;
    }
    const kind = !before ? 'created' : !after ? 'removed' : 'updated';
    notify({ message: 'events:changed', rooms: isPublicFor(before) || isPublicFor(after) ? ['members', 'public'] : ['members'], payload: { id, kind } });
    if (before?.status === 'pending' || after?.status === 'pending') {
      const [pendingEvents, pendingPosts] = await Promise.all([events.countDocuments({ status: 'pending' }), store.collection('feed_posts').countDocuments({ status: 'pending' })]);
      notify({ message: 'pending:changed', rooms: ['staff'], payload: { events: pendingEvents, posts: pendingPosts } });
    }
  },
};
