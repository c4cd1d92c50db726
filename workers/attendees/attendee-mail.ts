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
    /** Messages to the attendees still to be mailed (absent before messages existed). */
    messages?: MailEventMessage[];
    createdAt: string;
    updatedAt: string;
  };
export type MailEventMessage = { id: string; subject: string; body: string; to: MessageRecipients; by: string; at: string };
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
      return {
        ...kept,
        attending:
          event.data.status === 'attending'
            ? [...without(kept.attending, event.data.memberId), event.data.memberId]
            : without(kept.attending, event.data.memberId),
      };
    case 'RsvpRemoved':
      return { ...kept, attending: without(kept.attending, event.data.memberId) };
    case 'JoinedWaitlist':
      return { ...kept, attending: without(kept.attending, event.data.memberId), waiting: [...kept.waiting, event.data.memberId] };
    case 'LeftWaitlist':
      return { ...kept, waiting: without(kept.waiting, event.data.memberId) };
    case 'PromotedFromWaitlist':
      return { ...kept, waiting: without(kept.waiting, event.data.memberId), attending: [...kept.attending, event.data.memberId] };
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

/** Who is told what, by this event: [kind, member ids, what tells this mail from another of the same kind]. */
function mailsFor(
  before: MailCalendarEvent | null,
  event: CalendarEventEvent,
  position: number,
): [AttendeeMailKind, string[], string] | null {
  if (!before || before.cancelled) return null;
  switch (event.type) {
    case 'PromotedFromWaitlist':
      return ['promoted', [event.data.memberId], String(position)];
    case 'EventEdited':
      return isRescheduling(before, event.data.fields) ? ['changed', before.attending, String(before.sequence + 1)] : null;
    case 'EventCancelled':
      return ['cancelled', [...before.attending, ...before.waiting], 'cancelled'];
    case 'AttendeesMessaged':
      return ['message', event.data.to === 'attending' ? before.attending : [...before.attending, ...before.waiting], event.data.messageId];
    default:
      return null;
  }
}

/** Who is to be reminded of the event after this event of its stream, for its start then: a new attendee, or all at a new start. */
function remindersFor(before: MailCalendarEvent | null, after: Change | null, event: CalendarEventEvent): string[] {
  if (!before || !after || after.cancelled) return [];
  if (event.type === 'EventEdited') return after.startDate === before.startDate ? [] : after.attending;
  const joined = event.type === 'PromotedFromWaitlist' || (event.type === 'RsvpChanged' && event.data.status === 'attending');
  return joined && !before.attending.includes(event.data.memberId) ? [event.data.memberId] : [];
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
          const [kind, memberIds, key] = mails;
          entries.push(
            ...memberIds.map((memberId) =>
              newOutboxEntry(memberId, { kind: 'attendee', mail: kind, eventId: typed.id, memberId, key }, at),
            ),
          );
        }
        const remindAt = after ? Date.parse(after.startDate) - REMINDER_BEFORE_MS : 0;
        // A start less than a day away needs no reminder: the attendee has just said they come.
        if (remindAt > at.getTime()) {
          const sendAt = new Date(remindAt).toISOString();
          for (const memberId of remindersFor(before, after, typed.event))
            entries.push({
              ...newOutboxEntry(memberId, { kind: 'attendee', mail: 'reminder', eventId: typed.id, memberId, key: after!.startDate }, at),
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
