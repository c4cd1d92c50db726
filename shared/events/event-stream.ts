/**
 * A calendar event (stream `event-<id>`): scheduling, approval, featuring,
 * RSVPs and the waiting list. The capacity rule lives here, so concurrent RSVPs
 * (serialised per stream, checked by expected version) can never seat more than
 * maxAttendees.
 *
 * When the event is full (or others already wait), attending puts the member at
 * the end of the waiting list, unless the event has its waiting list off (then
 * it is refused, as before). Every decision that frees a place (someone leaves,
 * the limit is raised or lifted) promotes the first in line in the same append,
 * so no interleaving of RSVPs can overbook the event or pass anyone in the line.
 *
 * An event is cancelled, not deleted, once anyone attends or waits: it stays listed as cancelled (and calendar
 * apps learn of it), takes no RSVPs and no edits. Deleting a cancelled event, or one nobody answered, removes it.
 *
 * A rejected event leaves the listings and takes no RSVPs; staff may still
 * approve it later, as they may change their minds. An approved event is never rejected (it is cancelled instead).
 *
 * A private event is seen and answered by its organizer, staff and the members who opened its invite link
 * (InvitationAccepted; the route checks the link's token). The organizer and staff may message those attending, at
 * most MESSAGES_PER_DAY times in any 24 hours; the mail runner mails each of them once.
 */
import { type Actor, type CommandMetadata, type Decider, DomainError, assertNever, fail } from '../domain';
import { AT_CAPACITY, MESSAGES_PER_DAY, USE_CANCEL_MESSAGE, type MessageRecipients, type RsvpStatus } from './constants';
import type { EventFields } from './schemas';
import { occurrenceAt } from './recurrence';

export type CalendarEventEvent =
  | { type: 'EventScheduled'; data: { id: string; organizerId: string; fields: EventFields; approved: boolean; scheduledAt: string } }
  | { type: 'EventEdited'; data: { fields: EventFields; by: string; at: string } }
  | { type: 'EventApproved'; data: { by: string; at: string } }
  /** A member edited their approved event (logs before revisions): it waited for staff again. */
  | { type: 'EventReturnedToModeration'; data: { by: string; at: string } }
  /**
   * A member organiser edited their approved event: the edit waits for staff while attendees keep the approved event.
   * Staff approving it append EventRevisionApproved and then the edit itself (EventEdited, by its author), so every
   * reader of edits (mail to attendees, calendars' SEQUENCE, notifications) meets it only once approved.
   */
  | { type: 'EventRevisionSubmitted'; data: { fields: EventFields; by: string; at: string } }
  | { type: 'EventRevisionApproved'; data: { by: string; at: string } }
  /** `reason`: why, for the organizer and staff (sealed with the moderator's key). */
  | { type: 'EventRevisionRejected'; data: { by: string; reason?: string; at: string } }
  /** The organizer or staff made a new invite link for the private event: the earlier ones stop letting anyone in. */
  | { type: 'InviteLinkReset'; data: { generation: number; by: string; at: string } }
  /** `reason`: why, for the organizer and staff (sealed with the rejecting moderator's key). */
  | { type: 'EventRejected'; data: { by: string; reason?: string; at: string } }
  | { type: 'EventFeatured'; data: { by: string; at: string } }
  | { type: 'EventUnfeatured'; data: { by: string; at: string } }
  | { type: 'EventDeleted'; data: { by: string; at: string } }
  | { type: 'EventCancelled'; data: { by: string; at: string } }
  /**
   * The RSVP events carry `occurrence` (its start, ISO) for any occurrence of a recurring event but its first: each
   * occurrence has its own answers, places and line. Without it (every one-off event): the event, or its first occurrence.
   */
  | { type: 'RsvpChanged'; data: { memberId: string; status: RsvpStatus; previous: RsvpStatus | null; at: string; occurrence?: string } }
  | { type: 'RsvpRemoved'; data: { memberId: string; previous: RsvpStatus; at: string; occurrence?: string } }
  /** Asked to attend a full event: last in line. Any earlier answer (maybe, not attending) is replaced. */
  | { type: 'JoinedWaitlist'; data: { memberId: string; previous: RsvpStatus | null; at: string; occurrence?: string } }
  /** Left the line by answering maybe or not attending, or by taking the answer back. */
  | { type: 'LeftWaitlist'; data: { memberId: string; at: string; occurrence?: string } }
  /** A place freed: the first in line now attends. */
  | { type: 'PromotedFromWaitlist'; data: { memberId: string; at: string; occurrence?: string } }
  /**
   * One date of a recurring event cancelled (`occurrence`: its start as the series has it, ISO, the first's too; iCalendar's
   * RECURRENCE-ID / EXDATE): it stays listed as cancelled and takes no RSVPs. `told`: who attended or waited for it then.
   */
  | { type: 'OccurrenceCancelled'; data: { occurrence: string; reason?: string; told: string[]; by: string; at: string } }
  /**
   * One date of a recurring event moved to a new start and end; its answers and line stay with it (still keyed by
   * `occurrence`, its start as the series has it). `told`: who attended it then.
   */
  | {
      type: 'OccurrenceMoved';
      data: { occurrence: string; startDate: string; endDate: string; told: string[]; by: string; at: string };
    }
  /** A member opened the private event's invite link (the server checked its token): they may see it and RSVP. */
  | { type: 'InvitationAccepted'; data: { memberId: string; at: string } }
  /**
   * The organizer or staff wrote to those attending (and, with `attending+waitlisted`, those waiting): the mail runner
   * writes one outbox entry per recipient (workers/attendees). Subject and body are sealed with the writer's key.
   */
  | {
      type: 'AttendeesMessaged';
      data: { messageId: string; subject: string; body: string; to: MessageRecipients; by: string; at: string; occurrence?: string };
    };

export type CalendarEventCommand =
  | { type: 'ScheduleEvent'; data: { id: string; fields: EventFields }; metadata: CommandMetadata }
  | { type: 'EditEvent'; data: { fields: EventFields }; metadata: CommandMetadata }
  | { type: 'RejectEvent'; data: { reason?: string }; metadata: CommandMetadata }
  | {
      type: 'ApproveEvent' | 'FeatureEvent' | 'UnfeatureEvent' | 'DeleteEvent' | 'CancelEvent' | 'ResetInviteLink';
      data: Record<string, never>;
      metadata: CommandMetadata;
    }
  /** `occurrence`: a later occurrence's start (ISO) of a recurring event, as the route found it in the series; none for the first. */
  | { type: 'SetRsvp'; data: { status: RsvpStatus; occurrence?: string }; metadata: CommandMetadata }
  /** Only once the route has checked the invite link's token. */
  | { type: 'AcceptInvitation'; data: Record<string, never>; metadata: CommandMetadata }
  | {
      type: 'MessageAttendees';
      /** `occurrence`: to the people of one later date of a series (its start as the series has it); none: the event, or its first date. */
      data: { messageId: string; subject: string; body: string; to: MessageRecipients; occurrence?: string };
      metadata: CommandMetadata;
    }
  | { type: 'RemoveRsvp'; data: { occurrence?: string }; metadata: CommandMetadata }
  /** `occurrence`: the start (ISO) of one of the series' occurrences, the first's too, as the route found it in the series. */
  | { type: 'CancelOccurrence'; data: { occurrence: string; reason?: string }; metadata: CommandMetadata }
  /** `timeZone`: the site's, which the series' dates are made in (a date may not move onto another's start). */
  | {
      type: 'MoveOccurrence';
      data: { occurrence: string; startDate: string; endDate: string; timeZone: string };
      metadata: CommandMetadata;
    };

/** What became of one date of a series: cancelled, or moved to a new start and end. */
export type OccurrenceChange = { cancelled: true; reason?: string } | { cancelled: false; startDate: string; endDate: string };

/** Who answered one occurrence, and who waits for its places. */
export interface Seats {
  rsvps: ReadonlyMap<string, RsvpStatus>;
  waiting: readonly string[];
}

export interface CalendarEventState {
  status: 'none' | 'scheduled' | 'deleted';
  organizerId: string;
  approved: boolean;
  rejected: boolean;
  featured: boolean;
  cancelled: boolean;
  fields: EventFields | null;
  rsvps: ReadonlyMap<string, RsvpStatus>;
  /** Member ids waiting for a place, first in line first. */
  waiting: readonly string[];
  /** Members who opened the private event's invite link. */
  invited: ReadonlySet<string>;
  /** When each message to the attendees was sent: the daily limit counts them. */
  messagedAt: readonly string[];
  /** A member organiser's edit of the approved event, waiting for staff; null when none waits. */
  revision: { fields: EventFields; by: string } | null;
  /** How often the invite link was reset: the current link is of this generation (0: the first). */
  inviteGeneration: number;
  /** The later occurrences of a recurring event that anyone answered, by start (ISO); `rsvps` and `waiting` are the first's. */
  occurrences: ReadonlyMap<string, Seats>;
  /** The dates of a series cancelled or moved alone, by their start as the series has it (ISO). */
  changes: ReadonlyMap<string, OccurrenceChange>;
}

const RSVP_EVENT_TYPES: ReadonlySet<CalendarEventEvent['type']> = new Set([
  'RsvpChanged',
  'RsvpRemoved',
  'JoinedWaitlist',
  'LeftWaitlist',
  'PromotedFromWaitlist',
]);
/** The occurrence an RSVP event is about (its start, ISO); undefined for the event's first (or only) one. */
export const occurrenceOfEvent = (event: CalendarEventEvent): string | undefined =>
  RSVP_EVENT_TYPES.has(event.type) ? (event.data as { occurrence?: string }).occurrence : undefined;

/** One occurrence's answers and line (the first's for none). */
export function seatsOf(state: Pick<CalendarEventState, 'rsvps' | 'waiting' | 'occurrences'>, occurrence?: string): Seats {
  if (!occurrence) return { rsvps: state.rsvps, waiting: state.waiting };
  return state.occurrences.get(occurrence) ?? { rsvps: new Map(), waiting: [] };
}

/** The state as one occurrence sees it: its answers and line in place of the first's, its start as the event's. */
function occurrenceView(state: CalendarEventState, occurrence: string): CalendarEventState {
  const change = state.changes.get(occurrence);
  return {
    ...state,
    ...seatsOf(state, occurrence),
    occurrences: new Map(),
    changes: new Map(),
    cancelled: state.cancelled || change?.cancelled === true,
    fields: state.fields && { ...state.fields, startDate: change && !change.cancelled ? change.startDate : occurrence },
  };
}

/** The first occurrence's start as the series has it (ISO): the key of its cancellation or move. */
const firstStart = (state: CalendarEventState) => (state.fields ? new Date(state.fields.startDate).toISOString() : '');

/** The state as the first occurrence of a series sees it: cancelled or moved alone, when it was. */
function firstView(state: CalendarEventState): CalendarEventState {
  const change = state.changes.get(firstStart(state));
  if (!change || !state.fields) return state;
  const rest = { ...state, changes: new Map() };
  return change.cancelled
    ? { ...rest, cancelled: true }
    : { ...rest, fields: { ...state.fields, startDate: change.startDate, endDate: change.endDate } };
}

/** Who attends one occurrence (the first's for its own start), and who waits for it. */
export function occurrencePeople(state: CalendarEventState, occurrence: string): { attending: string[]; waiting: string[] } {
  const seats = occurrence === firstStart(state) ? seatsOf(state) : seatsOf(state, occurrence);
  return {
    attending: [...seats.rsvps].filter(([, status]) => status === 'attending').map(([memberId]) => memberId),
    waiting: [...seats.waiting],
  };
}

/** What an attendee's calendar must learn of: a change of time or place (iCalendar's SEQUENCE counts these). */
export const isRescheduling = (before: EventFields, after: EventFields) =>
  (['startDate', 'endDate', 'allDay', 'location', 'isVirtual', 'virtualLink'] as const).some((field) => before[field] !== after[field]) ||
  (['address', 'geo'] as const).some((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null));

/** iCalendar's SEQUENCE after an event of the stream: raised by a change of time or place and by a cancellation. */
export function sequenceAfter(sequence: number, event: CalendarEventEvent, before: EventFields | null): number {
  if (event.type === 'EventCancelled' || event.type === 'OccurrenceCancelled' || event.type === 'OccurrenceMoved') return sequence + 1;
  return event.type === 'EventEdited' && before && isRescheduling(before, event.data.fields) ? sequence + 1 : sequence;
}

/** Events saved before the waiting list existed have it on, as new ones do unless their organiser turns it off. */
export const hasWaitlist = (fields: Pick<EventFields, 'waitlist'>) => fields.waitlist !== false;

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

function evolve(state: CalendarEventState, event: CalendarEventEvent): CalendarEventState {
  const occurrence = occurrenceOfEvent(event);
  if (occurrence) {
    const seats = evolve(occurrenceView(state, occurrence), {
      ...event,
      data: { ...event.data, occurrence: undefined },
    } as CalendarEventEvent);
    return { ...state, occurrences: new Map(state.occurrences).set(occurrence, { rsvps: seats.rsvps, waiting: seats.waiting }) };
  }
  switch (event.type) {
    case 'EventScheduled':
      return {
        ...state,
        status: 'scheduled',
        organizerId: event.data.organizerId,
        approved: event.data.approved,
        fields: event.data.fields,
      };
    case 'EventEdited':
      return { ...state, fields: event.data.fields };
    case 'EventApproved':
      return { ...state, approved: true, rejected: false };
    case 'EventRevisionSubmitted':
      return { ...state, revision: { fields: event.data.fields, by: event.data.by } };
    case 'EventRevisionApproved':
    case 'EventRevisionRejected':
      return { ...state, revision: null };
    case 'InviteLinkReset':
      return { ...state, inviteGeneration: event.data.generation };
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
    case 'EventCancelled':
      // A cancelled event takes no more edits: an edit still waiting goes with it.
      return { ...state, cancelled: true, revision: null };
    case 'RsvpChanged':
      return { ...state, rsvps: new Map(state.rsvps).set(event.data.memberId, event.data.status) };
    case 'RsvpRemoved': {
      const rsvps = new Map(state.rsvps);
      rsvps.delete(event.data.memberId);
      return { ...state, rsvps };
    }
    case 'JoinedWaitlist': {
      const rsvps = new Map(state.rsvps);
      rsvps.delete(event.data.memberId);
      return { ...state, rsvps, waiting: [...state.waiting, event.data.memberId] };
    }
    case 'LeftWaitlist':
      return { ...state, waiting: state.waiting.filter((id) => id !== event.data.memberId) };
    case 'PromotedFromWaitlist':
      return {
        ...state,
        rsvps: new Map(state.rsvps).set(event.data.memberId, 'attending'),
        waiting: state.waiting.filter((id) => id !== event.data.memberId),
      };
    case 'OccurrenceCancelled':
      return {
        ...state,
        changes: new Map(state.changes).set(event.data.occurrence, {
          cancelled: true,
          ...(event.data.reason ? { reason: event.data.reason } : {}),
        }),
      };
    case 'OccurrenceMoved':
      return {
        ...state,
        changes: new Map(state.changes).set(event.data.occurrence, {
          cancelled: false,
          startDate: event.data.startDate,
          endDate: event.data.endDate,
        }),
      };
    case 'InvitationAccepted':
      return { ...state, invited: new Set(state.invited).add(event.data.memberId) };
    case 'AttendeesMessaged':
      return { ...state, messagedAt: [...state.messagedAt, event.data.at] };
    default:
      return assertNever(event);
  }
}

const DAY_MS = 24 * 3_600_000;

/** Who a message to the attendees reaches: those attending, and with `attending+waitlisted` those waiting too. */
export function messageRecipients(state: Pick<CalendarEventState, 'rsvps' | 'waiting'>, to: MessageRecipients): string[] {
  const attending = [...state.rsvps].filter(([, status]) => status === 'attending').map(([memberId]) => memberId);
  return to === 'attending' ? attending : [...attending, ...state.waiting];
}

const hasAttendees = (state: CalendarEventState) => state.waiting.length > 0 || [...state.rsvps.values()].includes('attending');

/** Places left under the limit; Infinity without one. */
function freePlaces(state: CalendarEventState): number {
  const max = state.fields?.maxAttendees ?? null;
  return max === null ? Infinity : max - attendeeCounts(state.rsvps.values()).attending;
}

/** The decision's events, followed by the promotions of the first in line to every place they leave free. */
function withPromotions(state: CalendarEventState, events: CalendarEventEvent[], at: string): CalendarEventEvent[] {
  const after = events.reduce(evolve, state);
  if (after.cancelled) return events;
  const promoted = after.waiting.slice(0, Math.max(0, freePlaces(after)));
  // A raised limit frees places in every occurrence of a series.
  const later = [...after.occurrences].flatMap(([occurrence, seats]) =>
    seats.waiting
      .slice(0, Math.max(0, freePlaces({ ...after, ...seats })))
      .map((memberId): CalendarEventEvent => ({ type: 'PromotedFromWaitlist', data: { memberId, at, occurrence } })),
  );
  return [
    ...events,
    ...promoted.map((memberId): CalendarEventEvent => ({ type: 'PromotedFromWaitlist', data: { memberId, at } })),
    ...later,
  ];
}

/** The most attending any one occurrence (the event itself for a one-off): a limit may not go below it. */
const mostAttending = (state: CalendarEventState) =>
  Math.max(
    ...[state.rsvps, ...[...state.occurrences.values()].map((seats) => seats.rsvps)].map(
      (rsvps) => attendeeCounts(rsvps.values()).attending,
    ),
  );

export const calendarEventDecider: Decider<CalendarEventState, CalendarEventCommand, CalendarEventEvent> = {
  initialState: () => ({
    status: 'none',
    organizerId: '',
    approved: false,
    rejected: false,
    featured: false,
    cancelled: false,
    fields: null,
    rsvps: new Map(),
    waiting: [],
    invited: new Set(),
    messagedAt: [],
    occurrences: new Map(),
    changes: new Map(),
    revision: null,
    inviteGeneration: 0,
  }),
  evolve,

  decide(command, state) {
    const at = command.metadata.now.toISOString();
    const actor = requireActor(command.metadata);
    if (command.type === 'ScheduleEvent') {
      if (actor.role === 'subscriber') throw fail.forbidden('Subscribers cannot create events. Upgrade your membership to create events.');
      if (state.status !== 'none') throw fail.conflict('This event already exists');
      return [
        {
          type: 'EventScheduled',
          data: { id: command.data.id, organizerId: actor.id, fields: command.data.fields, approved: isModerator(actor), scheduledAt: at },
        },
      ];
    }
    if (state.status !== 'scheduled' || !state.fields) throw fail.notFound('Event not found');
    const by = { by: actor.id, at };
    if ((command.type === 'SetRsvp' || command.type === 'RemoveRsvp') && command.data.occurrence) {
      // A later occurrence of a series: the same rules, on its own answers, places and line.
      const { occurrence, ...data } = command.data;
      return calendarEventDecider
        .decide({ ...command, data } as CalendarEventCommand, occurrenceView(state, occurrence))
        .map((event) => ({ ...event, data: { ...event.data, occurrence } }) as CalendarEventEvent);
    }
    if ((command.type === 'SetRsvp' || command.type === 'RemoveRsvp') && state.changes.size > 0) {
      // The first occurrence of a series, cancelled or moved alone: its answers are the event's own.
      const view = firstView(state);
      if (view !== state) return calendarEventDecider.decide(command, view);
    }

    const mayManage = actor.role !== 'subscriber' && (actor.id === state.organizerId || isModerator(actor));
    switch (command.type) {
      case 'EditEvent': {
        if (!mayManage) throw fail.forbidden('Only the organizer, staff or admins can edit this event');
        if (state.cancelled) throw fail.rule('This event was cancelled: it can no longer be changed');
        const { maxAttendees } = command.data.fields;
        const attending = mostAttending(state);
        if (maxAttendees !== null && maxAttendees < attending)
          throw fail.rule(`${attending} people are already attending: max attendees cannot be lower`);
        // Staff edits apply at once; a member's edit of an approved event waits for staff as a revision, while
        // attendees keep the approved event. A raised or lifted limit seats those waiting at once.
        if (state.approved && !isModerator(actor))
          return [{ type: 'EventRevisionSubmitted', data: { fields: command.data.fields, ...by } }];
        return withPromotions(state, [{ type: 'EventEdited', data: { fields: command.data.fields, ...by } }], at);
      }
      case 'ApproveEvent': {
        requireModerator(actor);
        if (state.approved && state.revision) {
          const { fields, by: author } = state.revision;
          const attending = mostAttending(state);
          if (fields.maxAttendees !== null && fields.maxAttendees < attending)
            throw fail.rule(`${attending} people are already attending: this edit's max attendees is lower. Reject it instead.`);
          return withPromotions(
            state,
            [
              { type: 'EventRevisionApproved', data: by },
              { type: 'EventEdited', data: { fields, by: author, at } },
            ],
            at,
          );
        }
        return state.approved ? [] : [{ type: 'EventApproved', data: by }];
      }
      case 'RejectEvent':
        requireModerator(actor);
        // On an approved event, what waits for staff is its organiser's edit: rejecting it keeps the approved event.
        if (state.approved && state.revision)
          return [{ type: 'EventRevisionRejected', data: { ...by, ...(command.data.reason ? { reason: command.data.reason } : {}) } }];
        // Never dropped silently: an approved event's attendees learn of its end by its cancellation.
        if (state.approved) throw fail.conflict(USE_CANCEL_MESSAGE);
        return state.rejected
          ? []
          : [{ type: 'EventRejected', data: { ...by, ...(command.data.reason ? { reason: command.data.reason } : {}) } }];
      case 'FeatureEvent':
        requireModerator(actor);
        if (state.cancelled) throw fail.rule('This event was cancelled: it cannot be featured');
        return state.featured ? [] : [{ type: 'EventFeatured', data: by }];
      case 'UnfeatureEvent':
        requireModerator(actor);
        return state.featured ? [{ type: 'EventUnfeatured', data: by }] : [];
      case 'DeleteEvent':
        requireModerator(actor);
        // Those who answered attending or wait must learn of it: the event is cancelled, and a second delete removes it.
        return hasAttendees(state) && !state.cancelled ? [{ type: 'EventCancelled', data: by }] : [{ type: 'EventDeleted', data: by }];
      case 'CancelEvent':
        if (!mayManage) throw fail.forbidden('Only the organizer, staff or admins can cancel this event');
        return state.cancelled ? [] : [{ type: 'EventCancelled', data: by }];
      case 'SetRsvp': {
        if (actor.role === 'subscriber') throw fail.forbidden('Upgrade your membership to RSVP to events');
        if (state.cancelled) throw fail.rule('This event was cancelled: it takes no RSVPs');
        if (state.rejected) throw fail.rule('This event was not approved: it takes no RSVPs');
        if (!state.approved) throw fail.rule('This event is waiting for approval: RSVP opens once it is approved');
        if (new Date(state.fields.startDate).getTime() <= command.metadata.now.getTime())
          throw fail.rule('RSVP is no longer available for past events');
        if (!state.fields.isPublic && actor.id !== state.organizerId && !isModerator(actor) && !state.invited.has(actor.id))
          throw fail.rule('This is a private event');
        const previous = state.rsvps.get(actor.id) ?? null;
        const waiting = state.waiting.includes(actor.id);
        const { status } = command.data;
        if (status === 'attending') {
          if (previous === 'attending' || waiting) return [];
          // Nobody passes those already in line, even where a place is free.
          if (freePlaces(state) > 0 && state.waiting.length === 0)
            return [{ type: 'RsvpChanged', data: { memberId: actor.id, status, previous, at } }];
          if (!hasWaitlist(state.fields)) throw fail.conflict(AT_CAPACITY);
          return [{ type: 'JoinedWaitlist', data: { memberId: actor.id, previous, at } }];
        }
        if (previous === status) return [];
        const left: CalendarEventEvent[] = waiting ? [{ type: 'LeftWaitlist', data: { memberId: actor.id, at } }] : [];
        return withPromotions(state, [...left, { type: 'RsvpChanged', data: { memberId: actor.id, status, previous, at } }], at);
      }
      case 'ResetInviteLink':
        if (!mayManage) throw fail.forbidden('Only the organizer and staff can reset the invite link');
        if (state.fields.isPublic) throw fail.rule('This event is public: share its page, no invitation is needed');
        return [{ type: 'InviteLinkReset', data: { generation: state.inviteGeneration + 1, ...by } }];
      case 'AcceptInvitation':
        // A public event needs no invitation; its organizer and staff see it anyway.
        if (state.fields.isPublic || actor.id === state.organizerId || isModerator(actor) || state.invited.has(actor.id)) return [];
        return [{ type: 'InvitationAccepted', data: { memberId: actor.id, at } }];
      case 'MessageAttendees': {
        if (!mayManage) throw fail.forbidden('Only the organizer and staff can message the attendees');
        if (state.cancelled) throw fail.rule('This event was cancelled: its attendees have been told');
        const { occurrence } = command.data;
        if (occurrence && state.changes.get(occurrence)?.cancelled)
          throw fail.rule('This date was cancelled: its attendees have been told');
        const recipients = messageRecipients(seatsOf(state, occurrence), command.data.to);
        if (recipients.length === 0)
          throw fail.rule(
            command.data.to === 'attending'
              ? 'Nobody is attending yet: there is no one to message'
              : 'Nobody is attending or waiting yet: there is no one to message',
          );
        const since = command.metadata.now.getTime() - DAY_MS;
        const recent = state.messagedAt.filter((sent) => Date.parse(sent) > since);
        if (recent.length >= MESSAGES_PER_DAY) {
          const hours = Math.max(1, Math.ceil((Date.parse(recent[0]!) + DAY_MS - command.metadata.now.getTime()) / 3_600_000));
          throw new DomainError(
            'rate_limited',
            `This event has had ${MESSAGES_PER_DAY} messages in the last 24 hours, the most it may send. You can send the next one in ${hours} hour${hours === 1 ? '' : 's'}.`,
          );
        }
        const { occurrence: _named, ...message } = command.data;
        return [{ type: 'AttendeesMessaged', data: { ...message, ...(occurrence ? { occurrence } : {}), by: actor.id, at } }];
      }
      case 'CancelOccurrence':
      case 'MoveOccurrence': {
        if (!mayManage) throw fail.forbidden('Only the organizer, staff or admins can change the dates of this event');
        if (state.cancelled) throw fail.conflict('This event was cancelled: its dates can no longer be changed');
        if (!state.fields.recurrenceRule) throw fail.rule('This event does not repeat: edit or cancel the event itself');
        const { occurrence } = command.data;
        const change = state.changes.get(occurrence);
        if (change?.cancelled) throw fail.conflict('This date was cancelled already');
        const now = command.metadata.now.getTime();
        const start = change ? change.startDate : occurrence;
        if (Date.parse(start) <= now) throw fail.conflict('This date has passed: it can no longer be changed');
        const people = occurrencePeople(state, occurrence);
        if (command.type === 'CancelOccurrence') {
          const { reason } = command.data;
          return [
            {
              type: 'OccurrenceCancelled',
              data: { occurrence, ...(reason ? { reason } : {}), told: [...people.attending, ...people.waiting], ...by },
            },
          ];
        }
        const { startDate, endDate } = command.data;
        if (Date.parse(endDate) < Date.parse(startDate))
          throw fail.invalid('The end must not be before the start', { endDate: 'The end must not be before the start' });
        if (Date.parse(startDate) <= now)
          throw fail.invalid('The new start must be in the future', { startDate: 'The new start must be in the future' });
        const onto = occurrenceAt(state.fields, command.data.timeZone, startDate);
        const taken =
          (onto !== null && onto !== occurrence && state.changes.get(onto)?.cancelled !== false) ||
          [...state.changes].some(([other, moved]) => other !== occurrence && !moved.cancelled && moved.startDate === startDate);
        if (taken) throw fail.conflict('Another date of this event starts then');
        if (change && change.startDate === startDate && change.endDate === endDate) return [];
        if (
          !change &&
          startDate === occurrence &&
          Date.parse(endDate) - Date.parse(startDate) === Date.parse(state.fields.endDate) - Date.parse(state.fields.startDate)
        )
          return [];
        return [{ type: 'OccurrenceMoved', data: { occurrence, startDate, endDate, told: people.attending, ...by } }];
      }
      case 'RemoveRsvp': {
        if (state.waiting.includes(actor.id)) return [{ type: 'LeftWaitlist', data: { memberId: actor.id, at } }];
        const previous = state.rsvps.get(actor.id);
        return previous ? withPromotions(state, [{ type: 'RsvpRemoved', data: { memberId: actor.id, previous, at } }], at) : [];
      }
      default:
        return assertNever(command);
    }
  },
};
