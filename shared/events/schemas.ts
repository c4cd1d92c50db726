/**
 * The event form and body, one schema for the client's form and the server (docs/domain/events.md#validation);
 * and the answers of the event calls.
 */
import * as v from 'valibot';
import { EVENT_TYPES, MESSAGE_BODY_MAX, MESSAGE_RECIPIENTS, MESSAGE_SUBJECT_MAX, MY_RSVP_STATUSES, TITLE_MAX_LENGTH } from './constants';
import { ROLES } from '../domain';
import { tagsSchema } from '../feed/schemas';
import { text } from '../text-schema';
import { MediaIdSchema, MediaSchema, type Media } from '../media/schemas';
import { formatRecurrenceRule, parseRecurrenceRule } from './recurrence';

const optionalText = (max: number) =>
  v.pipe(
    v.optional(v.nullable(text()), ''),
    v.transform((s) => (s ?? '').trim()),
    v.maxLength(max, `Must be at most ${max} characters`),
  );

const addressPart = (label: string, max: number) =>
  v.pipe(
    v.optional(v.nullable(text()), ''),
    v.transform((s) => (s ?? '').trim()),
    v.maxLength(max, `${label} must be at most ${max} characters`),
  );
/** Where an event takes place, as a postal address (docs/domain/events.md#places); every part optional. */
export const AddressSchema = v.object({
  street: addressPart('Street', 200),
  city: addressPart('City', 100),
  region: addressPart('State or region', 100),
  postalCode: addressPart('Postal code', 20),
  country: addressPart('Country', 100),
});
export type Address = v.InferOutput<typeof AddressSchema>;
const coordinate = (label: string, limit: number) =>
  v.pipe(
    v.union([v.number(), text()], `${label} must be a number`),
    v.transform((value) => (typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value))),
    v.number(`${label} must be a number`),
    v.check((value) => !Number.isNaN(value), `${label} must be a number`),
    v.minValue(-limit, `${label} must be between -${limit} and ${limit}`),
    v.maxValue(limit, `${label} must be between -${limit} and ${limit}`),
  );
/** The place's coordinates (WGS 84 degrees), for the map link and the calendar file's GEO. */
export const GeoSchema = v.object({ lat: coordinate('Latitude', 90), lon: coordinate('Longitude', 180) });
export type Geo = v.InferOutput<typeof GeoSchema>;

/** Four-digit years, as ISO 8601 and iCalendar write them: a calendar file cannot carry a date beyond them. */
const FIRST_YEAR = 1000;
const LAST_YEAR = 9999;
const inWrittenYears = (value: string) => {
  const year = new Date(value).getUTCFullYear();
  return Number.isNaN(year) || (year >= FIRST_YEAR && year <= LAST_YEAR);
};

const date = (label: string, invalid: string) =>
  v.pipe(
    v.optional(v.union([text(), v.date()], `${label} is required`), ''),
    v.transform((value) => (value instanceof Date ? value.toISOString() : value.trim())),
    v.minLength(1, `${label} is required`),
    v.check((value) => value === '' || !Number.isNaN(new Date(value).getTime()), invalid),
    v.check((value) => value === '' || inWrittenYears(value), `${label} must be between the years ${FIRST_YEAR} and ${LAST_YEAR}`),
    v.transform((value) => (value === '' ? value : new Date(value).toISOString())),
  );

export const EventSchema = v.pipe(
  v.object({
    title: v.pipe(
      v.optional(text(), ''),
      v.trim(),
      v.minLength(1, 'Event title is required'),
      v.maxLength(TITLE_MAX_LENGTH, 'Title must be less than 255 characters'),
    ),
    description: optionalText(10_000),
    eventType: v.optional(v.picklist(EVENT_TYPES, 'Choose one of the event types'), 'other'),
    location: optionalText(500),
    /** null: no address given (an address of empty parts is none). */
    address: v.pipe(
      v.optional(v.nullable(AddressSchema), null),
      v.transform((address) => (address && Object.values(address).some(Boolean) ? address : null)),
    ),
    geo: v.optional(v.nullable(GeoSchema), null),
    isVirtual: v.optional(v.boolean(), false),
    virtualLink: v.pipe(
      optionalText(2048),
      v.check((link) => link === '' || /^https?:\/\//i.test(link), 'The meeting link must start with http:// or https://'),
    ),
    startDate: date('Start date', 'Invalid start date format'),
    endDate: date('End date', 'Invalid end date format'),
    allDay: v.optional(v.boolean(), false),
    isRecurring: v.optional(v.boolean(), false),
    /** An RRULE (shared/events/recurrence.ts), written back in the site's order; '' for a one-off event. */
    recurrenceRule: v.pipe(
      optionalText(500),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        if (dataset.value === '') return '';
        const parsed = parseRecurrenceRule(dataset.value);
        if ('rule' in parsed) return formatRecurrenceRule(parsed.rule);
        addIssue({ message: parsed.error });
        return NEVER;
      }),
    ),
    maxAttendees: v.pipe(
      v.optional(v.nullable(v.union([v.number(), text()])), null),
      v.transform((value) => (value === null || value === '' ? null : Number(value))),
      v.nullable(
        v.pipe(
          v.number('Max attendees must be a number'),
          v.integer('Max attendees must be a whole number'),
          v.minValue(1, 'Max attendees must be at least 1'),
        ),
      ),
    ),
    isPublic: v.optional(v.boolean(), true),
    /** When full, attending puts a member in line for the next free place; off, it is refused. */
    waitlist: v.optional(v.boolean(), true),
    // Trimmed only, as the event form adds them (docs/domain/events.md#tags); the feed's lowercasing is not applied.
    tags: v.optional(
      tagsSchema((tag) => tag.trim()),
      [],
    ),
    /** An upload of the organiser's shown with the event (docs/domain/media.md#posts); the route turns it into `media`. */
    mediaId: v.optional(v.nullable(MediaIdSchema), null),
  }),
  v.forward(
    v.check((event) => new Date(event.endDate).getTime() >= new Date(event.startDate).getTime(), 'End date must be after start date'),
    ['endDate'],
  ),
  // A rule makes the event recurring; none, a one-off (whatever an older client sent as isRecurring).
  v.transform((event) => ({ ...event, isRecurring: event.recurrenceRule !== '' })),
);

/** The event as its stream records it: the form's fields, with the upload it shows (null: none) in place of `mediaId`. */
export type EventFields = Omit<v.InferOutput<typeof EventSchema>, 'mediaId'> & { media?: Media | null };
/** An occurrence of a recurring event, by its start (ISO); none: the event's first (a one-off event's only one). */
const occurrence = v.optional(
  v.pipe(
    text(),
    v.check((value) => !Number.isNaN(Date.parse(value)), 'occurrence must be the start of an occurrence, as an ISO date and time'),
    v.transform((value) => new Date(value).toISOString()),
  ),
);
export const RsvpSchema = v.object({
  status: v.picklist(['attending', 'maybe', 'not_attending'], 'Status must be attending, maybe or not_attending'),
  occurrence,
});
/** The occurrence a change of one date names: required, the start the series has it at (`occurrenceStart`). */
const namedOccurrence = v.pipe(
  v.optional(text(), ''),
  v.minLength(1, 'occurrence is required: the start of the date, as `occurrenceStart` gives it'),
  v.check((value) => !Number.isNaN(Date.parse(value)), 'occurrence must be the start of an occurrence, as an ISO date and time'),
  v.transform((value) => new Date(value).toISOString()),
);
/** POST /api/events/{id}/occurrences/cancel: one date of a recurring event cancelled alone. */
export const CancelOccurrenceSchema = v.object({ occurrence: namedOccurrence, reason: optionalText(500) });
/** POST /api/events/{id}/occurrences/move: one date of a recurring event moved alone to a new start and end. */
export const MoveOccurrenceSchema = v.pipe(
  v.object({
    occurrence: namedOccurrence,
    startDate: date('Start date', 'Invalid start date format'),
    endDate: date('End date', 'Invalid end date format'),
  }),
  v.forward(
    v.check((event) => Date.parse(event.endDate) >= Date.parse(event.startDate), 'End date must be after start date'),
    ['endDate'],
  ),
);
/** `?occurrence=` of the calls on one occurrence of a series. */
export const OccurrenceQuerySchema = v.object({ occurrence });

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const rsvpStatus = v.picklist(MY_RSVP_STATUSES);
/** 1 for the first in line. */
const position = v.pipe(v.number(), v.integer(), v.minValue(1));

/** Where an event is in moderation (docs/domain/events.md#approval). */
export const EVENT_STATUSES = ['pending', 'approved', 'rejected'] as const;

/** How many answered attending, maybe and not attending (`GET /api/events/{id}/attendees-count`). */
export const AttendeeCountsSchema = v.object({ attending: count, maybe: count, notAttending: count });
export type AttendeeCounts = v.InferOutput<typeof AttendeeCountsSchema>;

/** Who organises an event; the e-mail only for staff (the dialog's admin information). */
export const OrganizerSchema = v.object({
  firstName: v.string(),
  lastName: v.string(),
  role: v.picklist(ROLES),
  profileImageUrl: v.nullable(v.string()),
  /** Only for staff. */
  email: v.optional(v.string()),
});

/** An event as the API answers it: the form's fields, then what the calendar knows of it (docs/domain/events.md#event-types). */
export const CalendarEventSchema = v.object({
  id: v.string(),
  title: v.string(),
  description: v.string(),
  eventType: v.picklist(EVENT_TYPES),
  location: v.string(),
  isVirtual: v.boolean(),
  virtualLink: v.string(),
  /** ISO instants in UTC; for one occurrence of a series, that occurrence's. */
  startDate: v.string(),
  endDate: v.string(),
  /**
   * An occurrence of a recurring event (in the calendar's lists, and GET /api/events/{id}?occurrence=): its start, as
   * `occurrence` names it in RSVPs. The counts, RSVP and waiting list are then that occurrence's.
   */
  occurrenceStart: v.optional(v.string()),
  allDay: v.boolean(),
  isRecurring: v.boolean(),
  /** The RRULE ('' for a one-off event): FREQ=WEEKLY or MONTHLY, INTERVAL, BYDAY, COUNT or UNTIL. */
  recurrenceRule: v.string(),
  /** null: no limit. */
  maxAttendees: v.nullable(count),
  isPublic: v.boolean(),
  waitlist: v.boolean(),
  tags: v.array(v.string()),
  /** An uploaded picture or recording shown with the event, with its size. */
  media: v.optional(MediaSchema),
  /** The place as a postal address, null for none. */
  address: v.nullable(v.object({ street: v.string(), city: v.string(), region: v.string(), postalCode: v.string(), country: v.string() })),
  /** The place's coordinates, null for none. */
  geo: v.nullable(v.object({ lat: v.number(), lon: v.number() })),
  status: v.picklist(EVENT_STATUSES),
  isApproved: v.boolean(),
  isFeatured: v.boolean(),
  /** Cancelled by its organizer or staff: still listed, taking no RSVPs. */
  isCancelled: v.boolean(),
  /**
   * A member organiser's edit of the approved event waits for staff (for the organiser and staff only): the event
   * answers as approved, and `revision` holds the edit.
   */
  pendingRevision: v.optional(v.boolean()),
  revision: v.optional(
    v.object({
      title: v.string(),
      description: v.string(),
      location: v.string(),
      startDate: v.string(),
      endDate: v.string(),
      allDay: v.boolean(),
      maxAttendees: v.nullable(count),
      isPublic: v.boolean(),
      isVirtual: v.boolean(),
      virtualLink: v.string(),
      address: v.nullable(
        v.object({ street: v.string(), city: v.string(), region: v.string(), postalCode: v.string(), country: v.string() }),
      ),
      geo: v.nullable(v.object({ lat: v.number(), lon: v.number() })),
      /** When it was sent for review (ISO). */
      submittedAt: v.string(),
    }),
  ),
  /** A rejected event, for its organizer and staff only: the reason staff gave, null for none. */
  rejectionReason: v.optional(v.nullable(v.string())),
  organizerId: v.string(),
  organizer: OrganizerSchema,
  attendees: AttendeeCountsSchema,
  /** The attending count, as `attendees.attending`. */
  attendeeCount: count,
  /** How many wait for a place. */
  waitlistCount: count,
  /** Only on one event for a signed-in reader, and on their own list: their answer, null for none. */
  myRsvp: v.optional(v.nullable(rsvpStatus)),
  /** With myRsvp `waitlisted`: their place in line. */
  myWaitlistPosition: v.optional(position),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type CalendarEvent = v.InferOutput<typeof CalendarEventSchema>;

/** GET /api/events/{id}/rsvp/me: the reader's answer, null for none; their place in line when waitlisted. */
export const MyRsvpSchema = v.object({ status: v.nullable(rsvpStatus), position: v.optional(position) });
export type MyRsvp = v.InferOutput<typeof MyRsvpSchema>;

/** PUT and DELETE /api/events/{id}/rsvp/me: the reader's answer now (with their place in line when waitlisted), and the event's counts after it. */
export const RsvpChangeSchema = v.object({
  status: v.nullable(rsvpStatus),
  position: v.optional(position),
  attending: count,
  maybe: count,
  notAttending: count,
  waitlistCount: count,
});

/** GET /api/events/{id}/waitlist (organiser and staff): who waits, first in line first. */
export const WaitlistSchema = v.object({
  items: v.array(v.object({ memberId: v.string(), firstName: v.string(), lastName: v.string(), position })),
});
export type Waitlist = v.InferOutput<typeof WaitlistSchema>;
export type RsvpChange = v.InferOutput<typeof RsvpChangeSchema>;

/** GET /api/admin/events/stats: management's tiles (private = total − public; rejected events count in the total). */
export const EventStatsSchema = v.object({ total: count, pending: count, approved: count, featured: count, public: count, private: count });
export type EventStats = v.InferOutput<typeof EventStatsSchema>;

/** PUT /api/admin/events/{id}/reject's 409: `USE_CANCEL` for an approved event (cancel it instead); none for a conflict of two changes. */
export const UseCancelSchema = v.object({ error: v.optional(v.literal('USE_CANCEL')), message: v.string() });

/** GET /api/events/{id}/attendees (organiser and staff): everyone who answered, attending first, then the line, maybe, not attending. */
export const AttendeesSchema = v.object({
  items: v.array(
    v.object({
      member: v.object({ id: v.string(), name: v.string() }),
      status: rsvpStatus,
      /** With status `waitlisted`: the place in line. */
      position: v.optional(position),
      /** When they gave this answer (ISO). */
      at: v.string(),
    }),
  ),
});
export type Attendees = v.InferOutput<typeof AttendeesSchema>;

/** POST /api/events/{id}/message: plain text, mailed to each attendee (and, when asked, each one waiting). */
export const AttendeeMessageSchema = v.object({
  // One line: a subject header holds no line breaks.
  subject: v.pipe(
    v.optional(text(), ''),
    v.transform((subject) => subject.replace(/\s+/gu, ' ').trim()),
    v.minLength(1, 'Subject is required'),
    v.maxLength(MESSAGE_SUBJECT_MAX, `Subject must be at most ${MESSAGE_SUBJECT_MAX} characters`),
  ),
  body: v.pipe(
    v.optional(text(), ''),
    v.trim(),
    v.minLength(1, 'Message is required'),
    v.maxLength(MESSAGE_BODY_MAX, `Message must be at most ${MESSAGE_BODY_MAX} characters`),
  ),
  to: v.optional(v.picklist(MESSAGE_RECIPIENTS, 'Recipients must be attending or attending+waitlisted'), 'attending'),
  /** A recurring event: to the people of this date only (its `occurrenceStart`); none: the first date's, or a one-off event's. */
  occurrence,
});
export type AttendeeMessage = v.InferOutput<typeof AttendeeMessageSchema>;
/** The 202 of a message: how many it goes to (one mail each, through the outbox) and how many more the event may send today. */
export const MessageAcceptedSchema = v.object({ id: v.string(), recipients: count, remainingToday: count });
export type MessageAccepted = v.InferOutput<typeof MessageAcceptedSchema>;

/** GET /api/events/{id}/invite-link (organiser and staff, private events): the page address that lets a member in. */
export const InviteLinkSchema = v.object({ url: v.string() });
/** POST /api/events/{id}/invitation: the token of the invite link the member opened. */
export const InvitationSchema = v.object({
  token: v.pipe(v.optional(text(), ''), v.minLength(1, 'The invite link is incomplete'), v.maxLength(100, 'The invite link is not valid')),
});
