/** Business constants of events and the calendar (docs/domain/events.md#constants). */
export const EVENT_TYPES = [
  'meeting',
  'anniversary',
  'conference',
  'reunion',
  'broadcast_history',
  'memorial',
  'celebration',
  'other',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_TYPE_LABELS: Record<EventType, string> = {
  meeting: 'Meeting',
  anniversary: 'Anniversary',
  conference: 'Conference',
  reunion: 'Reunion',
  broadcast_history: 'Broadcast History',
  memorial: 'Memorial',
  celebration: 'Celebration',
  other: 'Other',
};

export const RSVP_STATUSES = ['attending', 'maybe', 'not_attending'] as const;
export type RsvpStatus = (typeof RSVP_STATUSES)[number];
/** A member's own standing with an event: an answer, or a place in the waiting list of a full one. */
export const MY_RSVP_STATUSES = [...RSVP_STATUSES, 'waitlisted'] as const;
export type MyRsvpStatus = (typeof MY_RSVP_STATUSES)[number];

export const TITLE_MAX_LENGTH = 255;
export const UPCOMING_LIMIT = 5;
export const FEATURED_SIDE_LIMIT = 3;
export const DAY_CELL_LIMIT = 2;
export const DEFAULT_DURATION_MS = 60 * 60 * 1000;
export const EVENT_ID_SHOWN_LENGTH = 8;
export const AT_CAPACITY = 'Event is at capacity';
/** Rejecting an approved event would drop it silently on those who answered it: it is cancelled instead (409 `USE_CANCEL`). */
export const USE_CANCEL = 'USE_CANCEL';
/** Who a message to an event's people reaches (`POST /api/events/{id}/message`). */
export const MESSAGE_RECIPIENTS = ['attending', 'attending+waitlisted'] as const;
export type MessageRecipients = (typeof MESSAGE_RECIPIENTS)[number];
/** Messages one event may send its attendees in any 24 hours (the next is a 429). */
export const MESSAGES_PER_DAY = 3;
export const MESSAGE_SUBJECT_MAX = 200;
export const MESSAGE_BODY_MAX = 5000;
export const USE_CANCEL_MESSAGE = 'This event is already approved: cancel it instead, so everyone who answered is told.';
/** Attendees are reminded by e-mail this long before an event starts (unless they turned reminders off). */
export const REMINDER_BEFORE_MS = 24 * 60 * 60 * 1000;
/** Day of the week the month grid starts on (0 = Sunday, as Date#getDay counts). */
export const WEEK_STARTS_ON = 0;
/** Events shown by the events widget unless it asks for another limit. */
export const EVENTS_WIDGET_LIMIT = 5;
/** Characters of an event's description shown in lists and widgets, and in the compact variants. */
export const EVENT_TEXT_LIMIT = 100;
export const EVENT_TEXT_LIMIT_COMPACT = 60;
