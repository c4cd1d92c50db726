/**
 * Read models of calendar events, built from `event-<id>` streams:
 * - `event_details` (EventDetails): one document per event with every RSVP, for
 *   the detail dialog, the member's own RSVP, attendee counts and the .ics file;
 * - `event_calendar` (CalendarEvents): the same without the RSVPs, so lists never
 *   carry them; month ranges, upcoming, featured, the pending queue and the
 *   management lists are its index-served queries.
 * The organizer's name, address, picture and role are copied in from `event_organizers`, kept here from the members'
 * own events, and refreshed when they change.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { Role } from '../../shared/domain';
import { attendeeCounts, occurrenceOfEvent, sequenceAfter, type CalendarEventEvent } from '../../shared/events/event-stream';
import {
  occurrenceField,
  seriesEntry,
  type OccurrenceChangeRecord,
  type OccurrenceChanges,
  type OccurrenceCounts,
  type OccurrenceSeats,
} from './series';
import type { RsvpStatus } from '../../shared/events/constants';
import type { EventFields } from '../../shared/events/schemas';
import type { MemberEvent } from '../../shared/members/member-stream';
import { bylineChange, withId, withoutId } from '../../shared/members/byline';
import { FORMER_MEMBER } from '../../shared/personal-data';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection, ProjectionContext } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { ROOMS, type Room } from '../../shared/socket-messages';

export const EVENT_DETAILS = 'event_details';
export const EVENT_CALENDAR = 'event_calendar';
export const EVENT_ORGANIZERS = 'event_organizers';

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
  /** Why staff rejected it, for its organizer and staff; null or absent when none was given or it is not rejected. */
  rejectionReason?: string | null;
  /** Members who opened a private event's invite link: they see it once approved, and may RSVP. */
  invited?: string[];
  /** A member organiser's edit waits for staff (the fields in the details' `revision`); absent before revisions: false. */
  pendingRevision?: boolean;
  /** The organiser's edit waiting for staff, for them and staff only (the moderation queue lists it); null or absent when none waits. */
  revision?: { fields: EventFields; by: string; at: string } | null;
  createdAt: string;
  updatedAt: string;
  /** A series' dates cancelled or moved alone, by their start as the series has it (occurrenceField). */
  changes?: OccurrenceChanges;
  /** Read as one occurrence of a series (projections/events/occurrences.ts): its start. Never stored. */
  occurrenceStart?: string;
};

export type EventDetailsDocument = Positioned &
  EventSummary & {
    rsvps: Record<string, RsvpStatus>;
    /** Member ids waiting for a place, first in line first. */
    waiting?: string[];
    /** A series' later occurrences that anyone answered, by start: who answered and who waits (the first's are `rsvps` and `waiting`). */
    occurrences?: OccurrenceSeats;
    /** The invite link's generation: links of earlier ones no longer let anyone in (absent: 0). */
    inviteGeneration?: number;
  };
export type CalendarEventDocument = Positioned &
  EventSummary & {
    /** Lowercased title, description and location: what the calendar's search matches. */
    search: string;
    /** A series (a recurrence rule the site reads), how far its occurrences may reach, and each later occurrence's counts. */
    recurs?: boolean;
    reach?: string;
    occurrenceCounts?: OccurrenceCounts;
  };

/**
 * An organizer as their events show them (null when the calendar does not know them, or once erased), and their
 * events, so that a change of theirs reaches each event by its id.
 */
type OrganizerDocument = Positioned & { _id: string; organizer: Organizer | null; events?: string[] };

export const eventDetails = (store: DocumentStore) => store.collection<EventDetailsDocument>(EVENT_DETAILS);
export const calendarEvents = (store: DocumentStore) => store.collection<CalendarEventDocument>(EVENT_CALENDAR);
const organizers = (store: DocumentStore) => store.collection<OrganizerDocument>(EVENT_ORGANIZERS);

/** The organizer as their events show them; one the calendar does not know (erased) as "Former member", in the role they had. */
const organizerOf = (known: Organizer | null, role: Role): Organizer =>
  known ?? { ...FORMER_MEMBER, email: '', role, profileImageUrl: null };

/** What a member event does to the organizer their events show; null when it changes nothing of it (a password, a bio). */
function organizerChange(event: MemberEvent): ((organizer: Organizer | null) => Organizer | null) | null {
  if (event.type === 'MemberEmailChanged') return (organizer) => organizer && { ...organizer, email: event.data.email };
  const change = bylineChange(event);
  if (!change) return null;
  const email = event.type === 'MemberRegistered' ? event.data.email : null;
  return (organizer) => {
    const byline = change(organizer);
    return byline && { ...byline, email: email ?? organizer?.email ?? '' };
  };
}

export const searchText = (event: Pick<EventFields, 'title' | 'description' | 'location'>) =>
  [event.title, event.description, event.location].join('\n').toLowerCase();

function calendarEntry(details: EventDetailsDocument): Omit<CalendarEventDocument, '_id' | '_position'> {
  const { _id, _position, rsvps, waiting, inviteGeneration, occurrences, ...summary } = details;
  return { ...summary, search: searchText(details), ...seriesEntry(details) };
}

/** Public approved events reach everyone; the rest only staff and the organizer, and an approved private one those invited. */
export const roomsFor = (event: Pick<EventSummary, 'isApproved' | 'isPublic' | 'organizerId' | 'invited'>): Room[] =>
  event.isApproved && event.isPublic
    ? [ROOMS.members, ROOMS.public]
    : [
        ROOMS.staff,
        ROOMS.member(event.organizerId),
        ...(event.isApproved ? (event.invited ?? []).map((memberId) => ROOMS.member(memberId)) : []),
      ];

/** The details document after one event of its stream; null removes it. */
function nextDetails(
  current: EventDetailsDocument | null,
  event: CalendarEventEvent,
  organizer: Organizer | null,
): Omit<EventDetailsDocument, '_id' | '_position'> | null {
  if (event.type === 'EventScheduled') {
    const { fields, approved, organizerId, scheduledAt } = event.data;
    return {
      ...fields,
      status: approved ? 'approved' : 'pending',
      isApproved: approved,
      isFeatured: false,
      organizerId,
      organizer: organizer ?? organizerOf(null, 'member'),
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
      return { ...current, status: 'approved', isApproved: true, rejectionReason: null, ...at };
    case 'EventRevisionSubmitted': {
      // The approved event stays as it is for everyone; only the organiser and staff see the edit that waits.
      const { fields, by, at: submittedAt } = event.data;
      return { ...current, pendingRevision: true, revision: { fields, by, at: submittedAt } };
    }
    case 'EventRevisionApproved':
    case 'EventRevisionRejected':
      return { ...current, pendingRevision: false, revision: null };
    case 'InviteLinkReset':
      return { ...current, inviteGeneration: event.data.generation };
    case 'EventReturnedToModeration':
      return { ...current, status: 'pending', isApproved: false, ...at };
    case 'EventRejected':
      return { ...current, status: 'rejected', isApproved: false, rejectionReason: event.data.reason ?? null, ...at };
    case 'EventFeatured':
      return { ...current, isFeatured: true, ...at };
    case 'EventUnfeatured':
      return { ...current, isFeatured: false, ...at };
    case 'EventDeleted':
      return null;
    case 'EventCancelled':
      return {
        ...current,
        isCancelled: true,
        isFeatured: false,
        pendingRevision: false,
        revision: null,
        sequence: sequenceAfter(current.sequence ?? 0, event, current),
        ...at,
      };
    case 'OccurrenceCancelled':
    case 'OccurrenceMoved': {
      // One date of a series cancelled or moved alone: calendar apps learn of it by a raised SEQUENCE.
      const { occurrence } = event.data;
      const change: OccurrenceChangeRecord =
        event.type === 'OccurrenceCancelled'
          ? { cancelled: true, ...(event.data.reason ? { reason: event.data.reason } : {}) }
          : { cancelled: false, startDate: event.data.startDate, endDate: event.data.endDate };
      return {
        ...current,
        changes: { ...current.changes, [occurrenceField(occurrence)]: change },
        sequence: sequenceAfter(current.sequence ?? 0, event, current),
        ...at,
      };
    }
    case 'InvitationAccepted':
      // Not an edit of the event: updatedAt stays.
      return { ...current, invited: [...(current.invited ?? []).filter((id) => id !== event.data.memberId), event.data.memberId] };
    case 'AttendeesMessaged':
      return current;
    case 'RsvpChanged':
    case 'RsvpRemoved':
    case 'JoinedWaitlist':
    case 'LeftWaitlist':
    case 'PromotedFromWaitlist': {
      const occurrence = occurrenceOfEvent(event);
      if (occurrence) {
        // A later occurrence of a series: the same change, on its own answers and line.
        const field = occurrenceField(occurrence);
        const seats = current.occurrences?.[field] ?? { rsvps: {}, waiting: [] };
        const next = nextDetails(
          { ...current, ...seats },
          { ...event, data: { ...event.data, occurrence: undefined } } as CalendarEventEvent,
          null,
        );
        // When each answered, for the organiser's list of this occurrence.
        const answeredAt = { ...seats.answeredAt, [event.data.memberId]: event.data.at };
        if (!next?.rsvps[event.data.memberId] && !next?.waiting?.includes(event.data.memberId)) delete answeredAt[event.data.memberId];
        return (
          next && {
            ...current,
            occurrences: { ...current.occurrences, [field]: { rsvps: next.rsvps, waiting: next.waiting ?? [], answeredAt } },
          }
        );
      }
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
const RSVP_EVENTS = new Set<CalendarEventEvent['type']>([
  'RsvpChanged',
  'RsvpRemoved',
  'JoinedWaitlist',
  'LeftWaitlist',
  'PromotedFromWaitlist',
]);

export const eventsProjection: Projection = {
  name: 'events',
  // 5: organisers' edits held as revisions; a cancelled event is never featured; invite link generations.
  // 6: series: `recurs`, `reach` and each occurrence's answers and counts.
  // 7: a series' dates cancelled or moved alone (`changes`).
  version: 7,
  collections: [EVENT_DETAILS, EVENT_CALENDAR, EVENT_ORGANIZERS],
  async setup(store) {
    await eventDetails(store).createIndex({ organizerId: 1 });
    const calendar = calendarEvents(store);
    await calendar.createIndex({ status: 1, isPublic: 1, startDate: 1 });
    await calendar.createIndex({ organizerId: 1, startDate: 1 });
    await calendar.createIndex({ isFeatured: 1, startDate: 1 });
    await calendar.createIndex({ status: 1, createdAt: 1 });
    await calendar.createIndex({ recurs: 1, reach: 1 });
  },
  async apply(recorded, context) {
    const typed = typedEvent(recorded);
    if (typed?.stream === 'member') return followOrganizer(typed.id, typed.event, recorded.position, context);
    if (typed?.stream !== 'event') return;
    const { id, event } = typed;
    // Mail only (workers/attendees): nothing an event's reader sees changes.
    if (event.type === 'AttendeesMessaged') return;
    const { store, notify } = context;
    const details = eventDetails(store);
    const before = await details.findOne({ _id: id });
    const organizer =
      event.type === 'EventScheduled'
        ? organizerOf((await organizers(store).findOne({ _id: event.data.organizerId }))?.organizer ?? null, 'member')
        : null;
    // Listed before it is written, taken off before it goes: a replay after a crash in between finds it again.
    if (event.type === 'EventScheduled') await listEvent(store, event.data.organizerId, id, true, recorded.position);
    else if (event.type === 'EventDeleted' && before) await listEvent(store, before.organizerId, id, false, recorded.position);
    await applyToDocument(details, id, recorded.position, (current) => nextDetails(current, event, organizer));
    // Built from the details document as it now stands, so a crash between the two writes heals on replay.
    const after = await details.findOne({ _id: id });
    await applyToDocument(calendarEvents(store), id, recorded.position, () => (after ? calendarEntry(after) : null));

    const subject = after ?? before;
    if (!subject) return;
    // A later occurrence's counts are not the event's: its readers read the event again.
    if (RSVP_EVENTS.has(event.type) && !occurrenceOfEvent(event)) {
      notify({
        message: 'rsvp:changed',
        rooms: roomsFor(subject),
        payload: { eventId: id, ...subject.attendees, waitlistCount: subject.waitlistCount ?? 0 },
      });
      return;
    }
    const rooms = new Set([...(before ? roomsFor(before) : []), ...(after ? roomsFor(after) : [])]);
    notify({ message: 'events:changed', rooms: [...rooms], payload: { id, kind: !before ? 'created' : !after ? 'removed' : 'updated' } });
  },
};

/** Whether two copies of an organizer show the same. */
const sameOrganizer = (one: Organizer, other: Organizer) =>
  one.firstName === other.firstName &&
  one.lastName === other.lastName &&
  one.email === other.email &&
  one.role === other.role &&
  one.profileImageUrl === other.profileImageUrl;

/** An organizer's document, or null when it says nothing any more. */
const organizerDocument = (organizer: Organizer | null, events: string[]) =>
  organizer || events.length > 0 ? { organizer, events } : null;

/** Lists an event among its organizer's, or takes it off. */
function listEvent(store: DocumentStore, organizerId: string, eventId: string, listed: boolean, at: number) {
  return applyToDocument(organizers(store), organizerId, at, (current) =>
    organizerDocument(current?.organizer ?? null, listed ? withId(current?.events, eventId) : withoutId(current?.events, eventId)),
  );
}

/**
 * A renamed, promoted or re-addressed organizer shows as they are now on their events. An erased member's events stay
 * as by "Former member", or go when they chose that their content goes (docs/domain/members.md#erasure). The
 * organizer's document lists their events, each reached by its id; it is written last, so a replay after a crash in
 * between finds the events still listed.
 */
async function followOrganizer(memberId: string, event: MemberEvent, at: number, { store, notify }: ProjectionContext) {
  const change = organizerChange(event);
  if (!change) return;
  const held = await organizers(store).findOne({ _id: memberId });
  const removed = event.type === 'MemberErased' && event.data.content === 'removed';
  // Applied already (a replay after a crash): the events follow the organizer as they stand.
  const known = held && held._position >= at ? held.organizer : change(held?.organizer ?? null);
  const unchanged = event.type === 'MemberRegistered' || (!removed && held?.organizer && known && sameOrganizer(held.organizer, known));
  const details = eventDetails(store);
  for (const _id of unchanged ? [] : (held?.events ?? [])) {
    const before = await details.findOne({ _id });
    if (!before) continue;
    if (removed) {
      // The calendar's entry first: a replay after a crash between the two finds the event by its details again.
      await applyToDocument(calendarEvents(store), _id, at, () => null);
      await applyToDocument(details, _id, at, () => null);
      notify({ message: 'events:changed', rooms: roomsFor(before), payload: { id: _id, kind: 'removed' } });
      continue;
    }
    await applyToDocument(details, _id, at, (current) => current && { ...current, organizer: organizerOf(known, current.organizer.role) });
    const after = await details.findOne({ _id });
    await applyToDocument(calendarEvents(store), _id, at, () => (after ? calendarEntry(after) : null));
    if (after) notify({ message: 'events:changed', rooms: roomsFor(after), payload: { id: _id, kind: 'updated' } });
  }
  await applyToDocument(organizers(store), memberId, at, (current) =>
    organizerDocument(change(current?.organizer ?? null), removed ? [] : (current?.events ?? [])),
  );
}
