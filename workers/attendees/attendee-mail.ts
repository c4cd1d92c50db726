/**
 * Mail to the people of an event, applied by the mail runner (so a rebuild of the read models never mails anyone
 * again), in the durable outbox the subscription mail uses:
 * - `promoted`: the first in line got a freed place;
 * - `changed`: the time or place changed; to each attendee, with the updated .ics (METHOD:REQUEST, SEQUENCE raised);
 * - `cancelled`: to each attendee and each one waiting, with METHOD:CANCEL and STATUS:CANCELLED;
 * - `message`: the organizer's or staff's words, to each attendee (and each one waiting, when asked), kept in the
 *   event's model until sent (MESSAGE_KEPT_MS);
 * - `reminder`: to each attendee, REMINDER_BEFORE_MS before the start, as an outbox entry scheduled for then (it
 *   waits in BullMQ's delayed set; the sweeper enqueues it again after a restart or a Redis flush, and its id keeps
 *   it single). A new start schedules a new one; the old one, and one for a member who left or an event cancelled,
 *   is dropped when it falls due (workers/attendees/delivery.ts).
 *
 * It keeps its own small models: `mail_calendar` (each event as calendar files need it, with who attends and who
 * waits) and `mail_people` (each member's address and name). For each event of the log it first writes the outbox
 * entries the change asks for (their ids name the cause, so a replay writes none twice), then its models, then hands
 * the entries to the queue: a crash between replays the event, finds the entries there and updates the models, and
 * the sweeper enqueues them.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { applyToDocument, type Positioned } from '../../platform/projections/documents';
import type { Projection } from '../../platform/projections/runner';
import { typedEvent } from '../../platform/projections/typed-event';
import { isRescheduling, sequenceAfter, type CalendarEventEvent } from '../../shared/events/event-stream';
import type { MessageRecipients } from '../../shared/events/constants';
import { REMINDER_BEFORE_MS } from '../../shared/events/constants';
import type { EventFields } from '../../shared/events/schemas';
import {
  insertNewEntries,
  mailOutbox,
  newOutboxEntry,
  setupOutbox,
  type AttendeeMailKind,
  type OutboxEntry,
} from '../subscriptions/outbox';
import { HISTORY_AGE_MS } from '../subscriptions/reactor';

export const MAIL_CALENDAR = 'mail_calendar';
export const MAIL_PEOPLE = 'mail_people';

export type MailCalendarEvent = Positioned &
  EventFields & {
    _id: string;
    organizerId: string;
    sequence: number;
    cancelled: boolean;
    attending: string[];
    waiting: string[];
    /** Each later date of a series that anyone attends or waits for, by its start as the series has it (occurrenceField). */
    occurrences?: Record<string, People>;
    /** A series' dates cancelled or moved alone, by their start as the series has it (occurrenceField). */
    changes?: Record<string, OccurrenceChange>;
    /** Messages to the attendees still to be mailed (absent before messages existed). */
    messages?: MailEventMessage[];
    createdAt: string;
    updatedAt: string;
  };
type People = { attending: string[]; waiting: string[] };
export type OccurrenceChange = { cancelled: true; reason?: string } | { cancelled: false; startDate: string; endDate: string };
/** An occurrence's key in `occurrences` and `changes`: its start without the milliseconds (a field name holds no dot). */
export const occurrenceField = (start: string) => new Date(start).toISOString().replace(/\.\d{3}Z$/u, 'Z');

/** Who attends and who waits for one date of the event (undefined: the event, or a series' first date). */
export function peopleOf(event: Pick<MailCalendarEvent, 'attending' | 'waiting' | 'occurrences'>, occurrence?: string): People {
  if (!occurrence) return { attending: event.attending, waiting: event.waiting };
  return event.occurrences?.[occurrenceField(occurrence)] ?? { attending: [], waiting: [] };
}

/** One date of the event as mail tells it: at its own start and end (moved alone, at its new ones), cancelled alone or not. */
export function occurrenceOf(event: MailCalendarEvent, occurrence?: string): MailCalendarEvent & { dateCancelled: boolean } {
  const start = occurrence ?? new Date(event.startDate).toISOString();
  const change = event.changes?.[occurrenceField(start)];
  const duration = Date.parse(event.endDate) - Date.parse(event.startDate);
  const times =
    change && !change.cancelled
      ? { startDate: change.startDate, endDate: change.endDate }
      : { startDate: start, endDate: new Date(Date.parse(start) + duration).toISOString() };
  return { ...event, ...times, dateCancelled: change?.cancelled === true };
}

/** Everyone attending or waiting for any date of the event. */
const everyone = (event: MailCalendarEvent, which: 'attending' | 'all') => [
  ...new Set(
    [{ attending: event.attending, waiting: event.waiting }, ...Object.values(event.occurrences ?? {})].flatMap((people) =>
      which === 'attending' ? people.attending : [...people.attending, ...people.waiting],
    ),
  ),
];

export type MailEventMessage = {
  id: string;
  subject: string;
  body: string;
  to: MessageRecipients;
  by: string;
  at: string;
  /** To the people of one later date of a series (its start as the series has it). */
  occurrence?: string;
};
/** How long a message's words stay in the model: long past the mail runner's day of history, so every mail of it finds them. */
const MESSAGE_KEPT_MS = 7 * 24 * 3_600_000;

export type MailPerson = Positioned & {
  _id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** false: the member turned event reminders off. */
  reminders?: boolean;
};

export const mailCalendar = (store: DocumentStore) => store.collection<MailCalendarEvent>(MAIL_CALENDAR);
export const mailPeople = (store: DocumentStore) => store.collection<MailPerson>(MAIL_PEOPLE);

type Change = Omit<MailCalendarEvent, '_id' | '_position'>;
const withoutKeys = <T extends Positioned & { _id: string }>({ _id, _position, ...rest }: T) => rest;

/** The event as mail needs it after one event of its stream; null when it is gone. */
function nextEvent(current: MailCalendarEvent | null, event: CalendarEventEvent): Change | null {
  if (event.type === 'EventScheduled') {
    const { fields, organizerId, scheduledAt } = event.data;
    return {
      ...fields,
      organizerId,
      sequence: 0,
      cancelled: false,
      attending: [],
      waiting: [],
      createdAt: scheduledAt,
      updatedAt: scheduledAt,
    };
  }
  if (!current || event.type === 'EventDeleted') return null;
  const { _id, _position, ...kept } = current;
  const sequence = sequenceAfter(current.sequence, event, current);
  const without = (ids: string[], id: string) => ids.filter((other) => other !== id);
  switch (event.type) {
    case 'EventEdited':
      return { ...kept, ...event.data.fields, sequence, updatedAt: event.data.at };
    case 'EventCancelled':
      return { ...kept, cancelled: true, sequence, updatedAt: event.data.at };
    case 'RsvpChanged':
    case 'RsvpRemoved':
    case 'JoinedWaitlist':
    case 'LeftWaitlist':
    case 'PromotedFromWaitlist': {
      const { occurrence } = event.data;
      const people = peopleAfter(peopleOf(kept, occurrence), event);
      if (!occurrence) return { ...kept, ...people };
      // A later date of a series: its own attendees and line.
      return { ...kept, occurrences: { ...kept.occurrences, [occurrenceField(occurrence)]: people } };
    }
    case 'OccurrenceCancelled':
    case 'OccurrenceMoved': {
      const change: OccurrenceChange =
        event.type === 'OccurrenceCancelled'
          ? { cancelled: true, ...(event.data.reason ? { reason: event.data.reason } : {}) }
          : { cancelled: false, startDate: event.data.startDate, endDate: event.data.endDate };
      return {
        ...kept,
        sequence,
        changes: { ...kept.changes, [occurrenceField(event.data.occurrence)]: change },
        updatedAt: event.data.at,
      };
    }
    case 'AttendeesMessaged': {
      const { messageId, ...message } = event.data;
      const since = Date.parse(message.at) - MESSAGE_KEPT_MS;
      return {
        ...kept,
        messages: [
          ...(kept.messages ?? []).filter((other) => Date.parse(other.at) > since && other.id !== messageId),
          { id: messageId, ...message },
        ],
      };
    }
    default:
      return kept;
  }
}

type RsvpEvent = Extract<
  CalendarEventEvent,
  { type: 'RsvpChanged' | 'RsvpRemoved' | 'JoinedWaitlist' | 'LeftWaitlist' | 'PromotedFromWaitlist' }
>;
/** Who attends and waits after one RSVP event. */
function peopleAfter(people: People, event: RsvpEvent): People {
  const { memberId } = event.data;
  const attending = people.attending.filter((other) => other !== memberId);
  const waiting = people.waiting.filter((other) => other !== memberId);
  switch (event.type) {
    case 'RsvpChanged':
      return { attending: event.data.status === 'attending' ? [...attending, memberId] : attending, waiting: people.waiting };
    case 'RsvpRemoved':
      return { attending, waiting: people.waiting };
    case 'JoinedWaitlist':
      return { attending, waiting: [...waiting, memberId] };
    case 'LeftWaitlist':
      return { attending: people.attending, waiting };
    case 'PromotedFromWaitlist':
      return { attending: [...attending, memberId], waiting };
  }
}

/** Who is told what, by this event: [kind, member ids, what tells this mail from another of the same kind, the date it is about]. */
function mailsFor(
  before: MailCalendarEvent | null,
  event: CalendarEventEvent,
  position: number,
): [AttendeeMailKind, string[], string, string?] | null {
  if (!before || before.cancelled) return null;
  switch (event.type) {
    case 'PromotedFromWaitlist':
      return ['promoted', [event.data.memberId], String(position), event.data.occurrence];
    case 'EventEdited':
      // A series' new time or place is news to the people of every date.
      return isRescheduling(before, event.data.fields) ? ['changed', everyone(before, 'attending'), String(before.sequence + 1)] : null;
    case 'EventCancelled':
      return ['cancelled', everyone(before, 'all'), 'cancelled'];
    case 'OccurrenceCancelled':
      return ['cancelled', event.data.told, 'cancelled', event.data.occurrence];
    case 'OccurrenceMoved':
      return ['changed', event.data.told, String(before.sequence + 1), event.data.occurrence];
    case 'AttendeesMessaged': {
      const people = peopleOf(before, event.data.occurrence);
      return [
        'message',
        event.data.to === 'attending' ? people.attending : [...people.attending, ...people.waiting],
        event.data.messageId,
        event.data.occurrence,
      ];
    }
    default:
      return null;
  }
}

/**
 * Who is to be reminded of which date after this event of its stream, at its start then: a new attendee of a date, or
 * all of a date moved (the event itself, or one date of a series).
 */
function remindersFor(
  before: MailCalendarEvent | null,
  after: Change | null,
  event: CalendarEventEvent,
): { memberIds: string[]; occurrence?: string } {
  const none = { memberIds: [] };
  if (!before || !after || after.cancelled) return none;
  if (event.type === 'EventEdited') return after.startDate === before.startDate ? none : { memberIds: after.attending };
  if (event.type === 'OccurrenceMoved') {
    const first = event.data.occurrence === new Date(before.startDate).toISOString();
    return { memberIds: event.data.told, ...(first ? {} : { occurrence: event.data.occurrence }) };
  }
  const joined = event.type === 'PromotedFromWaitlist' || (event.type === 'RsvpChanged' && event.data.status === 'attending');
  if (!joined) return none;
  const { occurrence } = event.data;
  return peopleOf(before, occurrence).attending.includes(event.data.memberId)
    ? none
    : { memberIds: [event.data.memberId], ...(occurrence ? { occurrence } : {}) };
}

export interface AttendeeMailOptions {
  enqueue(outboxIds: string[]): Promise<void>;
  onEnqueueError(error: unknown): void;
  now(): Date;
}

export function createAttendeeMail({ enqueue, onEnqueueError, now }: AttendeeMailOptions): Projection {
  return {
    name: 'attendee-mail',
    version: 1,
    collections: [MAIL_CALENDAR, MAIL_PEOPLE],
    setup: setupOutbox,
    async apply(recorded, { store }) {
      const typed = typedEvent(recorded);
      if (typed?.stream === 'calendar') {
        const { event } = typed;
        if (event.type === 'EventRemindersSet')
          await applyToDocument(
            mailPeople(store),
            event.data.memberId,
            recorded.position,
            (current) => current && { ...withoutKeys(current), reminders: event.data.enabled },
          );
        return;
      }
      if (typed?.stream === 'member') {
        const { event } = typed;
        if (event.type === 'MemberRegistered')
          await applyToDocument(mailPeople(store), typed.id, recorded.position, () => ({
            email: event.data.email,
            firstName: event.data.firstName,
            lastName: event.data.lastName,
          }));
        else if (event.type === 'MemberProfileChanged')
          await applyToDocument(
            mailPeople(store),
            typed.id,
            recorded.position,
            (current) =>
              current && {
                ...withoutKeys(current),
                firstName: event.data.firstName ?? current.firstName,
                lastName: event.data.lastName ?? current.lastName,
              },
          );
        return;
      }
      if (typed?.stream !== 'event') return;
      const events = mailCalendar(store);
      const before = await events.findOne({ _id: typed.id });
      // Applied already (a replay after a crash that came later): its mails were written first.
      if (before && before._position >= recorded.position) return;
      const after = nextEvent(before, typed.event);
      const at = now();
      let inserted: string[] = [];
      if (at.getTime() - recorded.createdAt.getTime() <= HISTORY_AGE_MS) {
        const entries: OutboxEntry[] = [];
        const mails = mailsFor(before, typed.event, recorded.position);
        if (mails) {
          const [kind, memberIds, key, occurrence] = mails;
          entries.push(
            ...memberIds.map((memberId) =>
              newOutboxEntry(
                memberId,
                { kind: 'attendee', mail: kind, eventId: typed.id, memberId, key, ...(occurrence ? { occurrence } : {}) },
                at,
              ),
            ),
          );
        }
        const reminders = remindersFor(before, after, typed.event);
        // The date's start as it now is (moved alone, its new one).
        const remindedStart =
          after && reminders.memberIds.length > 0
            ? occurrenceOf({ ...after, _id: typed.id, _position: recorded.position }, reminders.occurrence).startDate
            : null;
        const remindAt = remindedStart ? Date.parse(remindedStart) - REMINDER_BEFORE_MS : 0;
        // A start less than a day away needs no reminder: the attendee has just said they come.
        if (remindedStart && remindAt > at.getTime()) {
          const sendAt = new Date(remindAt).toISOString();
          const occurrence = reminders.occurrence ? { occurrence: reminders.occurrence } : {};
          for (const memberId of reminders.memberIds)
            entries.push({
              ...newOutboxEntry(
                memberId,
                { kind: 'attendee', mail: 'reminder', eventId: typed.id, memberId, key: remindedStart, ...occurrence },
                at,
              ),
              createdAt: sendAt,
              sendAt,
            });
        }
        inserted = await insertNewEntries(mailOutbox(store), entries);
      }
      await applyToDocument(events, typed.id, recorded.position, () => after);
      // Sent once the models show the change, so the mail tells the event as it now is.
      if (inserted.length > 0) enqueue(inserted).catch(onEnqueueError);
    },
  };
}
