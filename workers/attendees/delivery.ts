/**
 * What a mail to the people of an event says, decided when it is sent (so it tells the event as it is then), with
 * the calendar file that updates the entry their calendar app holds. Null when it has nothing left to say: the
 * member is gone, the event is gone, a promoted or reminded member no longer attends, a later change superseded
 * this one, the event moved since the reminder was scheduled (the new time has its own), or the member turned
 * reminders off. A message from the organizer carries their words, not a calendar file.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import { calendarFile, icsFileName, type CalendarMethod } from '../../shared/events/ics';
import { formatEventTime } from '../../shared/events/event-times';
import { escapeHtml } from '../../shared/text';
import type { OutboxCause } from '../subscriptions/outbox';
import {
  mailCalendar,
  mailPeople,
  occurrenceField,
  occurrenceOf,
  peopleOf,
  type MailCalendarEvent,
  type MailPerson,
} from './attendee-mail';

type AttendeeCause = Extract<OutboxCause, { kind: 'attendee' }>;

export interface AttendeeMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Sent as the mail's text/calendar part (nodemailer's icalEvent), which calendar apps act on; none with a message from the organizer. */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; filename: string; content: string };
}

const displayName = (person: Pick<MailPerson, 'firstName' | 'lastName'> | null) =>
  person ? `${person.firstName} ${person.lastName}`.trim() : '';

function whereLine(event: MailCalendarEvent): string {
  if (event.isVirtual) return event.virtualLink ? `Online: ${event.virtualLink}` : 'Online';
  return event.location || 'Location not specified';
}

/** The words of each kind of mail: subject, then paragraphs. */
function words(
  cause: AttendeeCause & { mail: Exclude<AttendeeCause['mail'], 'message'> },
  event: MailCalendarEvent,
  when: string,
): { subject: string; paragraphs: string[] } {
  if (cause.occurrence && cause.mail === 'cancelled') {
    const reason = event.changes?.[occurrenceField(cause.occurrence)];
    return {
      subject: `Cancelled: ${event.title} on ${when}`,
      paragraphs: [
        `${event.title} on ${when} was cancelled. The other dates of the series take place as planned.`,
        ...(reason?.cancelled && reason.reason ? [`The organizer wrote: ${reason.reason}`] : []),
        'The calendar file attached removes this date from your calendar app.',
      ],
    };
  }
  if (cause.occurrence && cause.mail === 'changed')
    return {
      subject: `Moved: ${event.title}`,
      paragraphs: [
        `One date of ${event.title} moved. It now takes place:`,
        `When: ${when}`,
        `Where: ${whereLine(event)}`,
        'Your RSVP stays with it. The other dates of the series are unchanged. The calendar file attached updates your calendar app.',
      ],
    };
  switch (cause.mail) {
    case 'promoted':
      return {
        subject: `A place is yours: ${event.title}`,
        paragraphs: [
          `A place freed up at ${event.title}, and it is yours: you were first on the waiting list, and you are now attending.`,
          `When: ${when}`,
          `Where: ${whereLine(event)}`,
          'If you can no longer come, change your RSVP on the event page, so the next in line gets the place.',
        ],
      };
    case 'changed':
      return {
        subject: `Changed: ${event.title}`,
        paragraphs: [
          `${event.title} has a new time or place.`,
          `When: ${when}`,
          `Where: ${whereLine(event)}`,
          'The calendar file attached updates the entry in your calendar app.',
        ],
      };
    case 'cancelled':
      return {
        subject: `Cancelled: ${event.title}`,
        paragraphs: [`${event.title} (${when}) was cancelled.`, 'The calendar file attached removes it from your calendar app.'],
      };
    case 'reminder':
      return {
        subject: `Tomorrow: ${event.title}`,
        paragraphs: [
          `A reminder: you are attending ${event.title}.`,
          `When: ${when}`,
          `Where: ${whereLine(event)}`,
          'If you can no longer come, change your RSVP on the event page, so someone waiting can have your place. You can turn these reminders off in Subscription Settings.',
        ],
      };
  }
}

const SIGNATURE = '— Broadcast History Community';

/**
 * A message from the organizer or staff: their plain text as written (escaped in the HTML part, its blank lines
 * paragraphs, its line breaks kept), with the event's line and the way out (changing one's RSVP). Null when the
 * member no longer attends (or waits, for a message to those waiting too), the event was cancelled since, or the
 * message's words are gone.
 */
async function messageMail(
  store: DocumentStore,
  cause: AttendeeCause,
  person: MailPerson,
  event: MailCalendarEvent,
  publicUrl: string,
  timeZone: string,
): Promise<AttendeeMessage | null> {
  const message = event.messages?.find((candidate) => candidate.id === cause.key);
  if (!message || event.cancelled) return null;
  // To the people of one date of a series: that date's, at its time.
  const people = peopleOf(event, message.occurrence);
  const date = occurrenceOf(event, message.occurrence);
  if (date.dateCancelled) return null;
  event = date;
  const still =
    people.attending.includes(cause.memberId) || (message.to === 'attending+waitlisted' && people.waiting.includes(cause.memberId));
  if (!still) return null;
  const writer = displayName(await mailPeople(store).findOne({ _id: message.by })) || 'The organizer';
  const url = `${publicUrl}/events/${event._id}`;
  const when = formatEventTime(event, { timeZone });
  const greeting = `Hello ${person.firstName || displayName(person) || 'there'},`;
  const intro = `${writer} wrote to the people of ${event.title} (${when}):`;
  const body = message.body
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  const why = people.attending.includes(cause.memberId) ? 'you are attending' : 'you are on its waiting list';
  const footer = `You receive this because ${why}. To stop receiving messages about this event, change your RSVP on the event page: ${url}`;
  return {
    to: person.email,
    subject: `${message.subject} · ${event.title}`,
    text: [greeting, intro, ...body, footer, SIGNATURE].join('\n\n') + '\n',
    html:
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>` +
      `<blockquote style="margin:0 0 1em;padding-left:1em;border-left:3px solid #cbd5e1">${body.map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`).join('')}</blockquote>` +
      `<p><a href="${escapeHtml(url)}">Open the event page</a></p>` +
      `<p style="font-size:12px;color:#64748b">You receive this because ${escapeHtml(why)}. To stop receiving messages about this event, change your RSVP on <a href="${escapeHtml(url)}">the event page</a>.</p><p>${SIGNATURE}</p>`,
  };
}

export async function attendeeMessage(
  store: DocumentStore,
  cause: AttendeeCause,
  { publicUrl, timeZone }: { publicUrl: string; timeZone: string },
): Promise<AttendeeMessage | null> {
  const [person, event] = await Promise.all([
    mailPeople(store).findOne({ _id: cause.memberId }),
    mailCalendar(store).findOne({ _id: cause.eventId }),
  ]);
  if (!person || !event) return null;
  if (cause.mail === 'message') return messageMail(store, cause, person, event, publicUrl, timeZone);
  // The date the mail is about: the event (or a series' first date), or one later date, at its own time.
  const date = occurrenceOf(event, cause.occurrence);
  const attends = peopleOf(event, cause.occurrence).attending.includes(cause.memberId);
  if (cause.mail === 'promoted' && (event.cancelled || date.dateCancelled || !attends)) return null;
  // Only the latest change goes out: its file carries every change before it. A date moved alone is told of each time.
  if (cause.mail === 'changed' && (event.cancelled || date.dateCancelled || (!cause.occurrence && String(event.sequence) !== cause.key)))
    return null;
  if (cause.mail === 'cancelled' && cause.occurrence && event.cancelled) return null;
  if (
    cause.mail === 'reminder' &&
    (event.cancelled || date.dateCancelled || !attends || date.startDate !== cause.key || person.reminders === false)
  )
    return null;

  const organizer = await mailPeople(store).findOne({ _id: event.organizerId });
  const url = `${publicUrl}/events/${event._id}`;
  // A date cancelled alone leaves the series in the attendee's calendar, with that date as an EXDATE: an update.
  const method = cause.mail === 'cancelled' && !cause.occurrence ? 'CANCEL' : 'REQUEST';
  const how: CalendarMethod = { method, attendee: { name: displayName(person), email: person.email } };
  const file = calendarFile(
    [
      {
        ...event,
        id: event._id,
        organizerName: displayName(organizer) || null,
        url,
        sequence: event.sequence,
        isCancelled: event.cancelled || (cause.mail === 'cancelled' && !cause.occurrence),
        timeZone,
      },
    ],
    new URL(publicUrl).hostname,
    new Date(),
    undefined,
    how,
  );
  const when = formatEventTime(date, { timeZone });
  const { subject, paragraphs } = words({ ...cause, mail: cause.mail }, date, when);
  const greeting = `Hello ${person.firstName || displayName(person) || 'there'},`;
  const closing = `The event page: ${url}`;
  return {
    to: person.email,
    subject,
    text: [greeting, ...paragraphs, closing, SIGNATURE].join('\n\n') + '\n',
    html:
      [greeting, ...paragraphs].map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('') +
      `<p><a href="${escapeHtml(url)}">Open the event page</a></p><p>${SIGNATURE}</p>`,
    icalEvent: { method, filename: icsFileName(event.title, event.startDate), content: file },
  };
}
