/** Who sees which event, and events as the API answers them (docs/domain/events.md). */
import type { Actor } from '../../shared/domain';
import type { Filter } from '../../platform/document-store/port';
import type { RsvpStatus } from '../../shared/events/constants';
import { hasWaitlist, isModerator } from '../../shared/events/event-stream';
import type { CalendarEvent, MyRsvp } from '../../shared/events/schemas';
import type { CalendarEventDocument, EventDetailsDocument } from './events';

const isStaff = (actor: Actor | null) => Boolean(actor && isModerator(actor));

/** Who sees what: everyone public approved events; members also their own and the private ones they were invited to; staff everything. */
export function visibility(actor: Actor | null): Filter {
  if (isStaff(actor)) return {};
  const open = { status: 'approved', isPublic: true };
  return actor ? { $or: [open, { organizerId: actor.id }, { status: 'approved', invited: actor.id }] } : open;
}

export function canSee(event: EventDetailsDocument, actor: Actor | null) {
  return (
    isStaff(actor) ||
    (event.isApproved && (event.isPublic || Boolean(actor && event.invited?.includes(actor.id)))) ||
    event.organizerId === actor?.id
  );
}

/** A member's answer to an event, or their place in its waiting list. */
export function standing(waiting: readonly string[], answer: RsvpStatus | undefined, memberId: string): MyRsvp {
  const index = waiting.indexOf(memberId);
  return index >= 0 ? { status: 'waitlisted', position: index + 1 } : { status: answer ?? null };
}
export const standingOf = (event: EventDetailsDocument, memberId: string) => standing(event.waiting ?? [], event.rsvps[memberId], memberId);

/** The event as the API answers it (docs/domain/events.md#event-types); organizer e-mails only for staff (the dialog's admin information). */
export function eventDto(event: CalendarEventDocument | EventDetailsDocument, viewer: Actor | null, mine?: MyRsvp): CalendarEvent {
  const { organizer } = event;
  return {
    id: event._id,
    title: event.title,
    description: event.description,
    eventType: event.eventType,
    location: event.location,
    isVirtual: event.isVirtual,
    virtualLink: event.virtualLink,
    startDate: event.startDate,
    endDate: event.endDate,
    ...(event.occurrenceStart ? { occurrenceStart: event.occurrenceStart } : {}),
    allDay: event.allDay,
    isRecurring: event.isRecurring,
    recurrenceRule: event.recurrenceRule,
    maxAttendees: event.maxAttendees,
    isPublic: event.isPublic,
    waitlist: hasWaitlist(event),
    tags: event.tags,
    ...(event.media ? { media: event.media } : {}),
    address: event.address ?? null,
    geo: event.geo ?? null,
    status: event.status,
    isApproved: event.isApproved,
    isFeatured: event.isFeatured,
    isCancelled: event.isCancelled ?? false,
    ...(event.pendingRevision && (isStaff(viewer) || viewer?.id === event.organizerId)
      ? { pendingRevision: true, ...(event.revision ? { revision: revisionDto(event.revision) } : {}) }
      : {}),
    ...(event.status === 'rejected' && (isStaff(viewer) || viewer?.id === event.organizerId)
      ? { rejectionReason: event.rejectionReason ?? null }
      : {}),
    organizerId: event.organizerId,
    organizer: {
      firstName: organizer.firstName,
      lastName: organizer.lastName,
      role: organizer.role,
      profileImageUrl: organizer.profileImageUrl,
      ...(isStaff(viewer) ? { email: organizer.email } : {}),
    },
    attendees: event.attendees,
    attendeeCount: event.attendees.attending,
    waitlistCount: event.waitlistCount ?? 0,
    ...(mine ? { myRsvp: mine.status, ...(mine.position ? { myWaitlistPosition: mine.position } : {}) } : {}),
    createdAt: event.createdAt,
    updatedAt: event.updatedAt,
  };
}

/** The edit that waits for staff, as its organiser and staff see it beside the approved event. */
function revisionDto({ fields, at }: NonNullable<EventDetailsDocument['revision']>): NonNullable<CalendarEvent['revision']> {
  return {
    title: fields.title,
    description: fields.description,
    location: fields.location,
    startDate: fields.startDate,
    endDate: fields.endDate,
    allDay: fields.allDay,
    maxAttendees: fields.maxAttendees,
    isPublic: fields.isPublic,
    isVirtual: fields.isVirtual,
    virtualLink: fields.virtualLink,
    address: fields.address ?? null,
    geo: fields.geo ?? null,
    submittedAt: at,
  };
}

/** One event as its reader sees it, with their own RSVP when signed in. */
export const detailsDto = (event: EventDetailsDocument, viewer: Actor | null): CalendarEvent =>
  eventDto(event, viewer, viewer ? standingOf(event, viewer.id) : undefined);
