import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { calendarFile, escapeText, foldLine, icsFileName, type IcsEvent } from '../../../shared/events/ics';

const base: IcsEvent = {
  id: '6f1c1c9e-0000-4000-8000-000000000001',
  title: 'Réunion — WGN 50 ans ☕ anniversary gathering of the engineering staff, with families',
  description: 'Bring photos; memories, and stories.\nSecond line \\ backslash',
  eventType: 'reunion',
  location: 'Tribune Tower, Chicago',
  isVirtual: false,
  virtualLink: '',
  startDate: '2026-07-04T18:00:00.000Z',
  endDate: '2026-07-04T21:30:00.000Z',
  allDay: false,
  tags: ['wgn', 'reunion'],
  organizerId: '0b5e3c1a-0000-4000-8000-0000000000ad',
  organizerName: 'Ada "The Founder", Chicago',
  url: 'https://community.example.org/events/6f1c1c9e-0000-4000-8000-000000000001',
  sequence: 2,
  createdAt: '2026-06-01T10:00:00.000Z',
  updatedAt: '2026-06-02T11:00:00.000Z',
};

const parse = (text: string) => new ICAL.Component(ICAL.parse(text));

describe('iCalendar export', () => {
  it('is parsed by a real iCalendar parser with every field intact', () => {
    const text = calendarFile([base], 'community.example.org', new Date('2026-06-03T00:00:00Z'));
    const calendar = parse(text);
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    expect(event.uid).toBe(`${base.id}@community.example.org`);
    expect(event.summary).toBe(base.title);
    expect(event.location).toBe('Tribune Tower, Chicago');
    expect(event.startDate.toJSDate().toISOString()).toBe(base.startDate);
    expect(event.endDate.toJSDate().toISOString()).toBe(base.endDate);
    expect(event.description).toBe(
      'Event Type: Reunion\n\nBring photos; memories, and stories.\nSecond line \\ backslash\n\nTags: wgn, reunion\n\nOrganizer: Ada "The Founder", Chicago',
    );
    const vevent = calendar.getFirstSubcomponent('vevent')!;
    // The event's page, its organizer by name only (no address), and how often its time or place changed.
    expect(vevent.getFirstPropertyValue('url')).toBe(base.url);
    expect(event.sequence).toBe(2);
    const organizer = vevent.getFirstProperty('organizer')!;
    expect(organizer.getParameter('cn')).toBe('Ada The Founder, Chicago');
    expect(String(organizer.getFirstValue())).toBe(`urn:uuid:${base.organizerId}`);
    expect(text).not.toMatch(/mailto:/iu);
    expect(vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(vevent.getFirstPropertyValue('transp')).toBe('OPAQUE');
    expect(String(vevent.getFirstPropertyValue('last-modified'))).toContain('2026-06-02T11:00:00');
  });

  it('folds lines at 75 octets without splitting a character, with CRLF endings', () => {
    const text = calendarFile([base], 'community.example.org');
    for (const line of text.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(text).toMatch(/\r\n [^\r\n]/);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    const folded = foldLine(`SUMMARY:${'☕'.repeat(40)}`);
    expect(folded.split('\r\n ').join('')).toBe(`SUMMARY:${'☕'.repeat(40)}`);
    for (const part of folded.split('\r\n')) expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
  });

  it('writes all-day events as dates with the end one day later, and virtual events with their link beside the page', () => {
    const text = calendarFile(
      [
        {
          ...base,
          allDay: true,
          eventType: 'other',
          isVirtual: true,
          virtualLink: 'https://meet.example.org/wgn',
          startDate: '2026-07-04T00:00:00.000Z',
          endDate: '2026-07-05T00:00:00.000Z',
        },
      ],
      'h',
    );
    expect(text).toContain('DTSTART;VALUE=DATE:20260704');
    expect(text).toContain('DTEND;VALUE=DATE:20260706');
    expect(text).toContain('LOCATION:Virtual Event');
    expect(text).toContain('CONFERENCE;VALUE=URI;FEATURE=VIDEO:https://meet.example.org/wgn');
    expect(text).not.toContain('Event Type:');
    const event = new ICAL.Event(parse(text).getFirstSubcomponent('vevent')!);
    expect(event.component.getAllProperties('url').map((url) => url.getFirstValue())).toEqual([base.url]);
    expect(event.description).toContain('Join online: https://meet.example.org/wgn');
    expect(event.startDate.isDate).toBe(true);
  });

  it('names the file after the title and start date', () => {
    expect(icsFileName('WGN Reunion: 75 years!', '2026-07-04T18:00:00Z')).toBe('WGN_Reunion_75_years_2026-07-04.ics');
    expect(icsFileName('Réunion — été', '2026-07-04T18:00:00Z')).toBe('Réunion__été_2026-07-04.ics');
    expect(icsFileName('x'.repeat(80), '2026-01-02T00:00:00Z')).toBe(`${'x'.repeat(50)}_2026-01-02.ics`);
  });

  it('escapes backslash, semicolon, comma and line breaks in text', () => {
    expect(escapeText('a\\b;c,d\r\ne\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
    const text = calendarFile([{ ...base, title: 'News, weather; sports' }], 'h');
    expect(text).toContain('SUMMARY:News\\, weather\\; sports');
  });

  it('drops control characters, so a pasted link cannot add properties', () => {
    const text = calendarFile(
      [
        {
          ...base,
          isVirtual: true,
          virtualLink: 'https://meet.example.org/x\r\nATTENDEE:mailto:evil@example.org',
          title: 'Bell\u0007 test',
        },
      ],
      'h',
    );
    expect(text).not.toMatch(/^ATTENDEE/m);
    expect(text.replaceAll('\r\n ', '')).toContain(
      'CONFERENCE;VALUE=URI;FEATURE=VIDEO:https://meet.example.org/xATTENDEE:mailto:evil@example.org',
    );
    expect(text).toContain('SUMMARY:Bell test');
    expect(() => parse(text)).not.toThrow();
  });

  it('unfolds to the original line, every continuation starting with exactly one space', () => {
    const line = `DESCRIPTION:${'Réunion — WGN 50 ans ☕ '.repeat(12)}`;
    const folded = foldLine(line).split('\r\n');
    expect(folded.length).toBeGreaterThan(3);
    expect(new TextEncoder().encode(folded[0]).length).toBe(75);
    for (const continuation of folded.slice(1)) {
      expect(continuation.startsWith(' ')).toBe(true);
      expect(new TextEncoder().encode(continuation).length).toBeLessThanOrEqual(75);
    }
    expect(folded.map((part, i) => (i === 0 ? part : part.slice(1))).join('')).toBe(line);
    expect(foldLine('SUMMARY:short')).toBe('SUMMARY:short');
    // Two-, three- and four-octet characters (a surrogate pair is one character, never split), and the 75-octet edge.
    for (const text of [`DESCRIPTION:${'é📻a☕'.repeat(30)}`, '☕'.repeat(25), '☕'.repeat(26), `X:${'📻'.repeat(40)}`]) {
      const parts = foldLine(text).split('\r\n');
      for (const part of parts) expect(new TextEncoder().encode(part).length, text).toBeLessThanOrEqual(75);
      expect(parts.map((part, i) => (i === 0 ? part : part.slice(1))).join(''), text).toBe(text);
      expect(
        parts.every((part) => !/^[\udc00-\udfff]|[\ud800-\udbff]$/u.test(part)),
        text,
      ).toBe(true);
    }
    expect(foldLine('☕'.repeat(25))).toBe('☕'.repeat(25));
    expect(foldLine('☕'.repeat(26)).split('\r\n')).toHaveLength(2);
  });

  it('publishes a feed with one event per entry, each with its own UID', () => {
    const second: IcsEvent = {
      ...base,
      id: 'e2',
      title: 'Memorial',
      eventType: 'memorial',
      tags: [],
      organizerName: null,
      description: '',
      sequence: 0,
    };
    const calendar = parse(
      calendarFile([base, second], 'community.example.org', new Date('2026-06-03T00:00:00Z'), 'Broadcast History Community'),
    );
    const events = calendar.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
    expect(events.map((event) => event.uid)).toEqual([`${base.id}@community.example.org`, 'e2@community.example.org']);
    expect(events[1]!.description).toBe('Event Type: Memorial');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Broadcast History Community');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(String(calendar.getFirstPropertyValue('prodid'))).toContain('Broadcast History Community');
    const vevent = calendar.getFirstSubcomponent('vevent')!;
    expect(String(vevent.getFirstPropertyValue('dtstamp'))).toBe('2026-06-03T00:00:00Z');
    expect(String(vevent.getFirstPropertyValue('created'))).toBe('2026-06-01T10:00:00Z');
  });

  it('says when in the site’s zone, naming it, in the description', () => {
    const text = calendarFile(
      [{ ...base, startDate: '2031-01-10T01:00:00Z', endDate: '2031-01-10T03:00:00Z', allDay: false, timeZone: 'America/Chicago' }],
      'h',
    ).replace(/\r\n /g, '');
    expect(text).toContain('DESCRIPTION:When: Thursday\\, January 9\\, 2031 · 7:00 PM – 9:00 PM CST');
  });

  it('leaves the description and location out when there is nothing to say', () => {
    const text = calendarFile(
      [{ ...base, eventType: 'other', description: '', tags: [], organizerName: null, location: '', isVirtual: true, virtualLink: '' }],
      'h',
    );
    expect(text).not.toContain('DESCRIPTION');
    expect(text).not.toContain('LOCATION');
    expect(text).not.toContain('CONFERENCE');
    expect(text).not.toContain('ORGANIZER');
  });

  it('ends a several-day all-day event one day after its last day', () => {
    const text = calendarFile([{ ...base, allDay: true, startDate: '2026-07-04T00:00:00.000Z', endDate: '2026-07-06T00:00:00.000Z' }], 'h');
    const event = new ICAL.Event(parse(text).getFirstSubcomponent('vevent')!);
    expect(event.startDate.toString()).toBe('2026-07-04');
    expect(event.endDate.toString()).toBe('2026-07-07');
  });

  it('keeps Unicode letters in the file name, drops other symbols, and names a title without letters or digits "event"', () => {
    expect(icsFileName('☕ — !!', '2026-07-04T18:00:00Z')).toBe('event_2026-07-04.ics');
    expect(icsFileName('Ünïcode_and-dash 50', '2026-07-04T18:00:00Z')).toBe('Ünïcode_and-dash_50_2026-07-04.ics');
  });
});
