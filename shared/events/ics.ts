/**
 * iCalendar 2.0 export (spec 2 "Calendar-file export"): PUBLISH, Gregorian, UTC
 * stamps, all-day dates with the end one day later, RFC 5545 text escaping and
 * lines folded at 75 octets without splitting a UTF-8 character.
 *
 * Every VEVENT carries URL (the event's page), ORGANIZER (the name only: its value
 * is the organizer's id as a URN, never an address) and SEQUENCE (how often its
 * time or place changed), so a calendar app that already holds the event updates
 * it. A VEVENT may carry one URL only: a virtual event's meeting link goes in
 * CONFERENCE (RFC 7986) and in the description.
 */
import { EVENT_TYPE_LABELS, type EventType } from './constants';
import { isUuid } from '../ids';
import { recurrenceLines, seriesTimeLine, timeZoneLines } from './ics-recurrence';
import { addressLine } from './summary-lines';
import { formatEventTime } from './event-times';

export interface IcsEvent {
  id: string;
  title: string;
  description: string;
  eventType: EventType;
  location: string;
  /** The place's postal address and coordinates, when the organiser gave them. */
  address?: { street: string; city: string; region: string; postalCode: string; country: string } | null;
  geo?: { lat: number; lon: number } | null;
  isVirtual: boolean;
  virtualLink: string;
  startDate: string;
  endDate: string;
  allDay: boolean;
  tags: string[];
  organizerId: string;
  organizerName: string | null;
  /** The event's page on the site. */
  url: string;
  /** Revisions of its time or place, and its cancellation (see isRescheduling). */
  sequence: number;
  isCancelled?: boolean;
  /** A recurring event's RRULE ('' or absent: a one-off), and the zone a timed series repeats in (ics-recurrence.ts). */
  recurrenceRule?: string;
  timeZone?: string;
  /**
   * A series' dates cancelled or moved alone, by their start as the series has it: a cancelled one is an EXDATE of the
   * series; a moved one its own VEVENT (same UID, RECURRENCE-ID the date it replaces, its new DTSTART and DTEND).
   */
  changes?: Record<string, { cancelled: true } | { cancelled: false; startDate: string; endDate: string }>;
  createdAt: string;
  updatedAt: string;
}

const PRODID = '-//Broadcast History Community//Events//EN';

/** Control characters other than tab may not appear in a content line (RFC 5545 §3.1); a stray one would break the file. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function escapeText(text: string): string {
  return text
    .replace(CONTROL, '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** A URI value is not escaped, so a line break in a pasted link would start a new property: drop every control character. */
const uriValue = (uri: string) => uri.replace(/[\u0000-\u001f\u007f]/g, '');

/** A parameter value (RFC 5545 §3.2): quoted, so ':', ';' and ',' may appear; a double quote or control character may not. */
const paramValue = (text: string) => `"${text.replace(/["\u0000-\u001f\u007f]/g, '')}"`;

/** A character's length in UTF-8 (a lone surrogate is written as U+FFFD, three octets). */
const utf8Length = (char: string) => {
  const code = char.codePointAt(0)!;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
};

/** Folds a content line at 75 octets; continuation lines start with one space. */
export function foldLine(line: string): string {
  // At most three octets per UTF-16 unit: a line of 25 units or fewer fits.
  if (line.length <= 25) return line;
  const parts: string[] = [];
  let current = '';
  let bytes = 0;
  let limit = 75;
  for (const char of line) {
    const size = utf8Length(char);
    if (bytes + size > limit) {
      parts.push(current);
      current = '';
      bytes = 0;
      limit = 74;
    }
    current += char;
    bytes += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const utcStamp = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const dateOnly = (iso: string, plusDays = 0) => {
  const date = new Date(iso);
  date.setUTCDate(date.getUTCDate() + plusDays);
  return date.toISOString().slice(0, 10).replace(/-/g, '');
};

/** The VEVENTs of one event: a series' own (with an EXDATE per date cancelled alone), then one per date moved alone. */
function eventBlocks(event: IcsEvent, host: string, now: Date): string[][] {
  const series = recurrenceLines(event);
  const changes = series.rule.length > 0 ? Object.entries(event.changes ?? {}) : [];
  if (changes.length === 0) return [eventLines(event, host, now)];
  const exdates = changes.filter(([, change]) => change.cancelled).map(([start]) => seriesTimeLine(event, 'EXDATE', start));
  const main = eventLines(event, host, now);
  const afterRule = main.findIndex((line) => line.startsWith('RRULE:')) + 1;
  const overrides = changes.flatMap(([start, change]) => {
    if (change.cancelled) return [];
    const lines = eventLines({ ...event, recurrenceRule: '', startDate: change.startDate, endDate: change.endDate }, host, now);
    // Written in the series' zone as its own times are, after RECURRENCE-ID (the date it replaces).
    const times = event.allDay
      ? lines.filter((line) => line.startsWith('DTSTART') || line.startsWith('DTEND'))
      : [seriesTimeLine(event, 'DTSTART', change.startDate), seriesTimeLine(event, 'DTEND', change.endDate)];
    const rest = lines.filter((line) => !line.startsWith('DTSTART') && !line.startsWith('DTEND'));
    return [[...rest.slice(0, 3), seriesTimeLine(event, 'RECURRENCE-ID', start), ...times, ...rest.slice(3)]];
  });
  return [[...main.slice(0, afterRule), ...exdates, ...main.slice(afterRule)], ...overrides];
}

function eventLines(event: IcsEvent, host: string, now: Date): string[] {
  const description = [
    // The time as the site shows it, naming its zone (a calendar app shows DTSTART in its reader's own).
    event.timeZone && !event.allDay ? `When: ${formatEventTime(event, { timeZone: event.timeZone })}` : '',
    event.eventType !== 'other' ? `Event Type: ${EVENT_TYPE_LABELS[event.eventType]}` : '',
    event.description,
    event.tags.length > 0 ? `Tags: ${event.tags.join(', ')}` : '',
    event.organizerName ? `Organizer: ${event.organizerName}` : '',
    event.isVirtual && event.virtualLink ? `Join online: ${uriValue(event.virtualLink)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  // The place's name and its address, as calendar apps show and map LOCATION.
  const place = [event.location, addressLine(event.address)].filter(Boolean).join(', ');
  const location = event.isVirtual && event.virtualLink ? 'Virtual Event' : place;
  const series = recurrenceLines(event);
  return [
    'BEGIN:VEVENT',
    `UID:${event.id}@${host}`,
    `DTSTAMP:${utcStamp(now.toISOString())}`,
    ...(event.allDay
      ? [`DTSTART;VALUE=DATE:${dateOnly(event.startDate)}`, `DTEND;VALUE=DATE:${dateOnly(event.endDate, 1)}`]
      : series.start.length > 0
        ? series.start
        : [`DTSTART:${utcStamp(event.startDate)}`, `DTEND:${utcStamp(event.endDate)}`]),
    ...series.rule,
    `SUMMARY:${escapeText(event.title)}`,
    ...(description ? [`DESCRIPTION:${escapeText(description)}`] : []),
    ...(location ? [`LOCATION:${escapeText(location)}`] : []),
    ...(event.geo ? [`GEO:${event.geo.lat};${event.geo.lon}`] : []),
    `URL:${uriValue(event.url)}`,
    ...(event.isVirtual && event.virtualLink ? [`CONFERENCE;VALUE=URI;FEATURE=VIDEO:${uriValue(event.virtualLink)}`] : []),
    ...(event.organizerName && isUuid(event.organizerId)
      ? [`ORGANIZER;CN=${paramValue(event.organizerName)}:urn:uuid:${event.organizerId}`]
      : []),
    `SEQUENCE:${event.sequence}`,
    `STATUS:${event.isCancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    `CREATED:${utcStamp(event.createdAt)}`,
    `LAST-MODIFIED:${utcStamp(event.updatedAt)}`,
    'END:VEVENT',
  ];
}

/**
 * How a file is meant: PUBLISH (a download or a feed); REQUEST (RFC 5546: an update of an entry the attendee's
 * calendar already holds, matched by UID and newer by SEQUENCE); CANCEL (remove it). The last two name the one
 * attendee the mail goes to.
 */
export type CalendarMethod = { method: 'PUBLISH' } | { method: 'REQUEST' | 'CANCEL'; attendee: { name: string; email: string } };

export function calendarFile(
  events: IcsEvent[],
  host: string,
  now = new Date(),
  name?: string,
  how: CalendarMethod = { method: 'PUBLISH' },
): string {
  const attendee =
    how.method === 'PUBLISH'
      ? []
      : [`ATTENDEE;CN=${paramValue(how.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:${uriValue(how.attendee.email)}`];
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODID}`,
    'CALSCALE:GREGORIAN',
    `METHOD:${how.method}`,
    ...(name ? [`X-WR-CALNAME:${escapeText(name)}`] : []),
    ...timeZoneLines(events),
    ...events.flatMap((event) =>
      eventBlocks(event, host, now).flatMap((lines) => [...lines.slice(0, -1), ...attendee, ...lines.slice(-1)]),
    ),
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/**
 * The spec's file name: the title without other characters than letters, digits, spaces,
 * hyphens and underscores; spaces to underscores; 50 characters; then the start date.
 * Letters and digits are Unicode ones ("Réunion" keeps its é), which every current
 * browser and file system accepts; a title with none of them is named "event".
 */
export function icsFileName(title: string, startDate: string): string {
  const kept = title.replace(/[^\p{L}\p{N} _-]/gu, '');
  const base = /[\p{L}\p{N}]/u.test(kept) ? kept.replace(/ /g, '_').slice(0, 50) : 'event';
  return `${base}_${new Date(startDate).toISOString().slice(0, 10)}.ics`;
}
