/**
 * Read models of calendar events, built from `event-<id>` streams:
 * - `event_details` (EventDetails): one document per event with every RSVP, for
 *   the detail dialog, the member's own RSVP, attendee counts and the .ics file;
 * - `event_calendar` (CalendarEvents): the same without the RSVPs, so lists never
 *   carry them; month ranges, upcoming, featured, the pending queue and the
 *   management lists are its index-served queries.
 * The organizer's name and role are copied in, and refreshed when they change.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { RecordedEvent } from '../../platform/event-store/port';
import type { Role } from '../../shared/domain';
import { attendeeCounts, sequenceAfter, type CalendarEventEvent } from '../../shared/events/event-stream';
import type { RsvpStatus } from '../../shared/events/constants';
import type { EventFields } from '../../shared/events/schemas';
import type { MemberEvent } from '../../shared/members/member-stream';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import { membersCollection, type MemberDocument } from '../members/members';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { ROOMS, type Room } from '../../shared/socket-messages';

export const EVENT_DETAILS = 'event_details';
export const EVENT_CALENDAR = 'event_calendar';

export type EventStatus = 'pending' | 'approved' | 'rejected';
export type AttendeeCounts = { attending: number; maybe: number; notAttending: number };
export type Organizer = { firstName: string; lastName: string; email: string; role: Role; profileImageUrl: string | null };

type EventSummary = EventFields & {
  _id: string;
  status: EventStatus;
  isApproved: boolean;
  isFeatured: boolean;
  organizerId: string;
  organizer: Organizer;
  attendees: AttendeeCounts;
  /** Absent, as `waiting`, on documents built before the waiting list: none waits there. */
  waitlistCount?: number;
  /** How often its time or place changed, or it was cancelled (iCalendar's SEQUENCE); absent on documents built before it: 0. */
  sequence?: number;
  /** Cancelled: still listed, as cancelled (absent before cancellation existed: false). */
  isCancelled?: boolean;
  createdAt: string;
  updatedAt: string;
};

export type EventDetailsDocument = Positioned &
  EventSummary & {
    rsvps: Record<string, RsvpStatus>;
    /** Member ids waiting for a place, first in line first. */
    waiting?: string[];
  };
export type CalendarEventDocument = Positioned &
  EventSummary & {
    /** Lowercased title, description and location: what the calendar's search matches. */
    search: string;
  };

export const eventDetails = (store: DocumentStore) => store.collection<EventDetailsDocument>(EVENT_DETAILS);
export const calendarEvents = (store: DocumentStore) => store.collection<CalendarEventDocument>(EVENT_CALENDAR);

const organizerOf = (member: MemberDocument | null): Organizer => ({
  firstName: member?.firstName ?? '',
  lastName: member?.lastName ?? '',
  email: member?.email ?? '',
  role: member?.role ?? 'member',
  profileImageUrl: member?.profileImageUrl ?? null,
});

export const searchText = (event: Pick<EventFields, 'title' | 'description' | 'location'>) => [event.title, event.description, event.location].join('\n').toLowerCase();

function calendarEntry(details: EventDetailsDocument): Omit<CalendarEventDocument, '_id' | '_position'> {
  const { _id, _position, rsvps, waiting, ...summary } = details;
  return { ...summary, search: searchText(details) };
}

/** Public approved events reach everyone; the rest only staff and the organizer. */
export const roomsFor = (event: Pick<EventSummary, 'isApproved' | 'isPublic' | 'organizerId'>): Room[] =>
  event.isApproved && event.isPublic ? [ROOMS.members, ROOMS.public] : [ROOMS.staff, ROOMS.member(event.organizerId)];

/** The details document after one event of its stream; null removes it. */
function nextDetails(current: EventDetailsDocument | null, event: CalendarEventEvent, organizer: Organizer | null): Omit<EventDetailsDocument, '_id' | '_position'> | null {
  if (event.type === 'EventScheduled') {
    const { fields, approved, organizerId, scheduledAt } = event.data;
    return {
      ...fields,
      status: approved ? 'approved' : 'pending',
      isApproved: approved,
      isFeatured: false,
      organizerId,
      organizer: organizer ?? organizerOf(null),
      rsvps: {},
      waiting: [],
      attendees: { attending: 0, maybe: 0, notAttending: 0 },
      waitlistCount: 0,
      sequence: 0,
      createdAt: scheduledAt,
      updatedAt: scheduledAt,
    };
  }
  if (!current) return null;
  const at = { updatedAt: event.data.at };
  switch (event.type) {
    case 'EventEdited':
      return { ...current, ...event.data.fields, sequence: sequenceAfter(current.sequence ?? 0, event, current), ...at };
    case 'EventApproved':
      return { ...current, status: 'approved', isApproved: true, ...at };
    case 'EventReturnedToModeration':
      return { ...current, status: 'pending', isApproved: false, ...at };
    case 'EventRejected':
      return { ...current, status: 'rejected', isApproved: false, ...at };
    case 'EventFeatured':
      return { ...current, isFeatured: true, ...at };
    case 'EventUnfeatured':
      return { ...current, isFeatured: false, ...at };
    case 'EventDeleted':
      return null;
    case 'EventCancelled':
      return { ...current, isCancelled: true, sequence: sequenceAfter(current.sequence ?? 0, event, current), ...at };
    case 'RsvpChanged':
    case 'RsvpRemoved':
    case 'JoinedWaitlist':
    case 'LeftWaitlist':
    case 'PromotedFromWaitlist': {
      const { memberId } = event.data;
      const rsvps = { ...current.rsvps };
      let waiting = (current.waiting ?? []).filter((id) => id !== memberId);
      if (event.type === 'RsvpChanged') rsvps[memberId] = event.data.status;
      else if (event.type === 'PromotedFromWaitlist') rsvps[memberId] = 'attending';
      else delete rsvps[memberId];
      if (event.type === 'JoinedWaitlist') waiting = [...waiting, memberId];
      // An RSVP is not an edit of the event: updatedAt stays.
      return { ...current, rsvps, waiting, attendees: attendeeCounts(Object.values(rsvps)), waitlistCount: waiting.length };
    }
  }
}

/** What changes who comes, not the event itself. */
const RSVP_EVENTS = new Set<CalendarEventEvent['type']>(['RsvpChanged', 'RsvpRemoved', 'JoinedWaitlist', 'LeftWaitlist', 'PromotedFromWaitlist']);

export const eventsProjection: Projection = {
  name: 'events',
  version: 1,
  collections: [EVENT_DETAILS, EVENT_CALENDAR],
  async setup(store) {
    await eventDetails(store).createIndex({ organizerId: 1 });
    const calendar = calendarEvents(store);
    await calendar.createIndex({ status: 1, isPublic: 1, startDate: 1 });
    await calendar.createIndex({ organizerId: 1, startDate: 1 });
    await calendar.createIndex({ isFeatured: 1, startDate: 1 });
    await calendar.createIndex({ status: 1, createdAt: 1 });
  },
  async apply(recorded, context) {
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member') return refreshOrganizer(typed.id, typed.event, context);
    if (typed?.stream !== 'event') return;
    const { id, event } = typed;
    const { store, notify } = context;
    const details = eventDetails(store);
    const before = await details.findOne({ _id: id });
    const organizer = event.type === 'EventScheduled' ? organizerOf(await membersCollection(store).findOne({ _id: event.data.organizerId })) : null;
    await applyToDocument(details, id, recorded.position, (current) => nextDetails(current, event, organizer));
    // Built from the details document as it now stands, so a crash between the two writes heals on replay.
    const after = await details.findOne({ _id: id });
    await applyToDocument(calendarEvents(store), id, recorded.position, () => (after ? calendarEntry(after) : null));

    const subject = after ?? before;
    if (!subject) return;
    if (RSVP_EVENTS.has(event.type)) {
      notify({ message: 'rsvp:changed', rooms: roomsFor(subject), payload: { eventId: id, ...subject.attendees, waitlistCount: subject.waitlistCount ?? 0 } });
      return;
    }
    const rooms = new Set([...(before ? roomsFor(before) : []), ...(after ? roomsFor(after) : [])]);
    notify({ message: 'events:changed', rooms: [...rooms], payload: { id, kind: !before ? 'created' : !after ? 'removed' : 'updated' } });
  },
};

/** A renamed or promoted organizer shows as they are now on their events. */
async function refreshOrganizer(memberId: string, event: RecordedEvent & MemberEvent, { store, notify }: ProjectionContext) {
  if (event.type !== 'MemberProfileChanged' && event.type !== 'MemberRoleChanged') return;
  const organizer = organizerOf(await membersCollection(store).findOne({ _id: memberId }));
  const details = eventDetails(store);
  for (const { _id } of await details.find({ organizerId: memberId })) {
    await applyToDocument(details, _id, event.position, (current) => current && { ...current, organizer });
    const after = await details.findOne({ _id });
    await applyToDocument(calendarEvents(store), _id, event.position, () => (after ? calendarEntry(after) : null));
    if (after) notify({ message: 'events:changed', rooms: roomsFor(after), payload: { id: _id, kind: 'updated' } });
  }
}
