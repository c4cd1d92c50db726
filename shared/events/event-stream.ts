/**
 * A calendar event (stream `event-<id>`): scheduling, approval, featuring and
 * RSVPs. The capacity rule lives here, so concurrent RSVPs (serialised per
 * stream, checked by expected version) can never seat more than maxAttendees.
 *
 * A rejected event leaves the listings and takes no RSVPs; staff may still
 * approve it later, as they may change their minds.
 */
import { type Actor, type CommandMetadata, type Decider, assertNever, fail } from '../domain';
import { AT_CAPACITY, type RsvpStatus } from './constants';
import type { EventFields } from './schemas';

export type CalendarEventEvent =
  | { type: 'EventScheduled'; data: { id: string; organizerId: string; fields: EventFields; approved: boolean; scheduledAt: string } }
  | { type: 'EventEdited'; data: { fields: EventFields; by: string; at: string } }
  | { type: 'EventApproved'; data: { by: string; at: string } }
  /** A member edited their approved event: it waits for staff again, so nothing unreviewed reaches guests. */
  | { type: 'EventReturnedToModeration'; data: { by: string; at: string } }
  | { type: 'EventRejected'; data: { by: string; at: string } }
  | { type: 'EventFeatured'; data: { by: string; at: string } }
  | { type: 'EventUnfeatured'; data: { by: string; at: string } }
  | { type: 'EventDeleted'; data: { by: string; at: string } }
  | { type: 'RsvpChanged'; data: { memberId: string; status: RsvpStatus; previous: RsvpStatus | null; at: string } }
  | { type: 'RsvpRemoved'; data: { memberId: string; previous: RsvpStatus; at: string } };

export type CalendarEventCommand =
  | { type: 'ScheduleEvent'; data: { id: string; fields: EventFields }; metadata: CommandMetadata }
  | { type: 'EditEvent'; data: { fields: EventFields }; metadata: CommandMetadata }
  | { type: 'ApproveEvent' | 'RejectEvent' | 'FeatureEvent' | 'UnfeatureEvent' | 'DeleteEvent'; data: Record<string, never>; metadata: CommandMetadata }
  | { type: 'SetRsvp'; data: { status: RsvpStatus }; metadata: CommandMetadata }
  | { type: 'RemoveRsvp'; data: Record<string, never>; metadata: CommandMetadata };

export interface CalendarEventState {
  status: 'none' | 'scheduled' | 'deleted';
  organizerId: string;
  approved: boolean;
  rejected: boolean;
  featured: boolean;
  fields: EventFields | null;
  rsvps: ReadonlyMap<string, RsvpStatus>;
}

export const isModerator = (actor: Actor) => actor.role === 'admin' || actor.role === 'staff';

/** How many answered attending, maybe and not attending: one count for the decider and the read models. */
export function attendeeCounts(answers: Iterable<RsvpStatus>) {
  const counts = { attending: 0, maybe: 0, notAttending: 0 };
  for (const status of answers) {
    if (status === 'attending') counts.attending++;
    else if (status === 'maybe') counts.maybe++;
    else counts.notAttending++;
  }
  return counts;
}

function requireActor(metadata: CommandMetadata): Actor {
  if (!metadata.actor) throw fail.unauthenticated();
  return metadata.actor;
}

function requireModerator(actor: Actor) {
  if (!isModerator(actor)) throw fail.forbidden('Only admins and staff can do that');
}

export const calendarEventDecider: Decider<CalendarEventState, CalendarEventCommand, CalendarEventEvent> = {
  initialState: () => ({ status: 'none', organizerId: '', approved: false, rejected: false, featured: false, fields: null, rsvps: new Map() }),

  evolve(state, event) {
    switch (event.type) {
      case 'EventScheduled':
        return { ...state, status: 'scheduled', organizerId: event.data.organizerId, approved: event.data.approved, fields: event.data.fields };
      case 'EventEdited':
        return { ...state, fields: event.data.fields };
      case 'EventApproved':
        return { ...state, approved: true, rejected: false };
      case 'EventReturnedToModeration':
        return { ...state, approved: false };
      case 'EventRejected':
        return { ...state, approved: false, rejected: true };
      case 'EventFeatured':
        return { ...state, featured: true };
      case 'EventUnfeatured':
        return { ...state, featured: false };
      case 'EventDeleted':
        return { ...state, status: 'deleted' };
      case 'RsvpChanged':
        return { ...state, rsvps: new Map(state.rsvps).set(event.data.memberId, event.data.status) };
      case 'RsvpRemoved': {
        const rsvps = new Map(state.rsvps);
        rsvps.delete(event.data.memberId);
        return { ...state, rsvps };
      }
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const at = command.metadata.now.toISOString();
    const actor = requireActor(command.metadata);
    if (command.type === 'ScheduleEvent') {
      if (actor.role === 'subscriber') throw fail.forbidden('Subscribers cannot create events. Upgrade your membership to create events.');
      if (state.status !== 'none') throw fail.conflict('This event already exists');
      return [{ type: 'EventScheduled', data: { id: command.data.id, organizerId: actor.id, fields: command.data.fields, approved: isModerator(actor), scheduledAt: at } }];
    }
    if (state.status !== 'scheduled' || !state.fields) throw fail.notFound('Event not found');
    const by = { by: actor.id, at };

    switch (command.type) {
      case 'EditEvent': {
        if (actor.role === 'subscriber' || (actor.id !== state.organizerId && !isModerator(actor))) throw fail.forbidden('Only the organizer, staff or admins can edit this event');
        const { maxAttendees } = command.data.fields;
        const { attending } = attendeeCounts(state.rsvps.values());
        if (maxAttendees !== null && maxAttendees < attending) throw fail.rule(`${attending} people are already attending: max attendees cannot be lower`);
        const edited: CalendarEventEvent = { type: 'EventEdited', data: { fields: command.data.fields, ...by } };
        // Staff edits keep approval; a member's edit of an approved event goes back to the moderation queue.
        return state.approved && !isModerator(actor) ? [edited, { type: 'EventReturnedToModeration', data: by }] : [edited];
      }
      case 'ApproveEvent':
        requireModerator(actor);
        return state.approved ? [] : [{ type: 'EventApproved', data: by }];
      case 'RejectEvent':
        requireModerator(actor);
        return state.rejected ? [] : [{ type: 'EventRejected', data: by }];
      case 'FeatureEvent':
        requireModerator(actor);
        return state.featured ? [] : [{ type: 'EventFeatured', data: by }];
      case 'UnfeatureEvent':
        requireModerator(actor);
        return state.featured ? [{ type: 'EventUnfeatured', data: by }] : [];
      case 'DeleteEvent':
        requireModerator(actor);
        return [{ type: 'EventDeleted', data: by }];
      case 'SetRsvp': {
        if (actor.role === 'subscriber') throw fail.forbidden('Upgrade your membership to RSVP to events');
        if (state.rejected) throw fail.rule('This event was not approved: it takes no RSVPs');
        if (!state.approved) throw fail.rule('This event is waiting for approval: RSVP opens once it is approved');
        if (new Date(state.fields.startDate).getTime() <= command.metadata.now.getTime()) throw fail.rule('RSVP is no longer available for past events');
        if (!state.fields.isPublic && actor.id !== state.organizerId && !isModerator(actor)) throw fail.rule('This is a private event');
        const previous = state.rsvps.get(actor.id) ?? null;
        const { status } = command.data;
        if (previous === status) return [];
        const { maxAttendees } = state.fields;
        if (status === 'attending' && maxAttendees !== null && attendeeCounts(state.rsvps.values()).attending >= maxAttendees) throw fail.conflict(AT_CAPACITY);
        return [{ type: 'RsvpChanged', data: { memberId: actor.id, status, previous, at } }];
      }
      case 'RemoveRsvp': {
        const previous = state.rsvps.get(actor.id);
        return previous ? [{ type: 'RsvpRemoved', data: { memberId: actor.id, previous, at } }] : [];
      }
      default:
        return assertNever(command);
    }
  },
};
