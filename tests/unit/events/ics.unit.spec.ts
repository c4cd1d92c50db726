import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { calendarFile, foldLine, icsFileName, type IcsEvent } from '../../../shared/events/ics';

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
  organizerName: 'Ada Founder',
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
    expect(event.description).toBe('Event Type: Reunion\n\nBring photos; memories, and stories.\nSecond line \\ backslash\n\nTags: wgn, reunion\n\nOrganizer: Ada Founder');
    const vevent = calendar.getFirstSubcomponent('vevent')!;
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

  it('writes all-day events as dates with the end one day later, and virtual events with their link', () => {
    const text = calendarFile([{ ...base, allDay: true, eventType: 'other', isVirtual: true, virtualLink: 'https://meet.example.org/wgn', startDate: '2026-07-04T00:00:00.000Z', endDate: '2026-07-05T00:00:00.000Z' }], 'h');
    expect(text).toContain('DTSTART;VALUE=DATE:20260704');
    expect(text).toContain('DTEND;VALUE=DATE:20260706');
    expect(text).toContain('LOCATION:Virtual Event');
    expect(text).toContain('URL:https://meet.example.org/wgn');
    expect(text).not.toContain('Event Type:');
    const event = new ICAL.Event(parse(text).getFirstSubcomponent('vevent')!);
    expect(event.startDate.isDate).toBe(true);
  });

  it('names the file after the title and start date', () => {
    expect(icsFileName('WGN Reunion: 75 years!', '2026-07-04T18:00:00Z')).toBe('WGN_Reunion_75_years_2026-07-04.ics');
    expect(icsFileName('Réunion — été', '2026-07-04T18:00:00Z')).toBe('Réunion__été_2026-07-04.ics');
    expect(icsFileName('x'.repeat(80), '2026-01-02T00:00:00Z')).toBe(`${'x'.repeat(50)}_2026-01-02.ics`);
  });
});
