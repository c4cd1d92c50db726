import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { EventSchema, RsvpSchema } from '../../../shared/events/schemas';
import { EVENT_TYPES } from '../../../shared/events/constants';

const valid = { title: 'WGN reunion', startDate: '2026-07-04T18:00:00.000Z', endDate: '2026-07-04T21:00:00.000Z' };

/** Field → message of every issue, as the form and the 400 answer show them. */
const issues = (input: Record<string, unknown>) => {
  const result = v.safeParse(EventSchema, input);
  return result.success ? {} : Object.fromEntries(result.issues.map((issue) => [v.getDotPath(issue), issue.message]));
};
const parse = (input: Record<string, unknown>) => v.parse(EventSchema, input);

describe('event form schema: the spec’s messages', () => {
  it('requires a title, start and end', () => {
    expect(issues({})).toEqual({ title: 'Event title is required', startDate: 'Start date is required', endDate: 'End date is required' });
    expect(issues({ ...valid, title: '   ' })).toEqual({ title: 'Event title is required' });
    expect(issues({ ...valid, startDate: '' })).toEqual({ startDate: 'Start date is required' });
    expect(issues({ ...valid, endDate: '' })).toEqual({ endDate: 'End date is required' });
  });

  it('allows 255 characters of title and no more', () => {
    expect(issues({ ...valid, title: 'x'.repeat(255) })).toEqual({});
    expect(issues({ ...valid, title: 'x'.repeat(256) })).toEqual({ title: 'Title must be less than 255 characters' });
    // Surrounding spaces are trimmed before counting.
    expect(issues({ ...valid, title: ` ${'x'.repeat(255)} ` })).toEqual({});
  });

  it('reports unreadable dates on their own field', () => {
    expect(issues({ ...valid, startDate: 'soon' })).toEqual({ startDate: 'Invalid start date format' });
    expect(issues({ ...valid, endDate: '2026-13-45T99:00' })).toEqual({ endDate: 'Invalid end date format' });
    expect(issues({ ...valid, startDate: 'soon', endDate: 'later' })).toEqual({
      startDate: 'Invalid start date format',
      endDate: 'Invalid end date format',
    });
  });

  it('refuses dates outside four-digit years, which no calendar file can carry', () => {
    expect(issues({ ...valid, startDate: '+275760-09-13T00:00:00.000Z', endDate: '+275760-09-13T00:00:00.000Z', allDay: true })).toEqual({
      startDate: 'Start date must be between the years 1000 and 9999',
      endDate: 'End date must be between the years 1000 and 9999',
    });
    expect(issues({ ...valid, startDate: '0999-12-31T23:59:59.999Z' })).toEqual({
      startDate: 'Start date must be between the years 1000 and 9999',
    });
    expect(issues({ ...valid, startDate: '1000-01-01T00:00:00.000Z', endDate: '9999-12-31T23:59:59.999Z' })).toEqual({});
  });

  it('reports an end before the start on endDate, and allows an equal end', () => {
    expect(issues({ ...valid, endDate: '2026-07-04T17:59:00.000Z' })).toEqual({ endDate: 'End date must be after start date' });
    expect(issues({ ...valid, endDate: valid.startDate })).toEqual({});
    // Shown together with other fields' messages, but only once both dates are readable.
    expect(issues({ ...valid, title: '', endDate: '2026-07-03T00:00:00.000Z' })).toEqual({
      title: 'Event title is required',
      endDate: 'End date must be after start date',
    });
    expect(issues({ ...valid, startDate: 'soon', endDate: '2026-07-03T00:00:00.000Z' })).toEqual({
      startDate: 'Invalid start date format',
    });
  });

  it('takes only the listed event types, other by default', () => {
    for (const eventType of EVENT_TYPES) expect(parse({ ...valid, eventType }).eventType).toBe(eventType);
    expect(parse(valid).eventType).toBe('other');
    expect(issues({ ...valid, eventType: 'party' })).toEqual({ eventType: 'Choose one of the event types' });
  });

  it('reads max attendees as a whole number of at least 1, or no limit when empty', () => {
    expect(parse(valid).maxAttendees).toBeNull();
    expect(parse({ ...valid, maxAttendees: '' }).maxAttendees).toBeNull();
    expect(parse({ ...valid, maxAttendees: null }).maxAttendees).toBeNull();
    expect(parse({ ...valid, maxAttendees: '25' }).maxAttendees).toBe(25);
    expect(parse({ ...valid, maxAttendees: 1 }).maxAttendees).toBe(1);
    expect(issues({ ...valid, maxAttendees: 0 })).toEqual({ maxAttendees: 'Max attendees must be at least 1' });
    expect(issues({ ...valid, maxAttendees: '-3' })).toEqual({ maxAttendees: 'Max attendees must be at least 1' });
    expect(issues({ ...valid, maxAttendees: 2.5 })).toEqual({ maxAttendees: 'Max attendees must be a whole number' });
    expect(issues({ ...valid, maxAttendees: 'ten' })).toEqual({ maxAttendees: 'Max attendees must be a number' });
  });

  it('accepts an http(s) meeting link or none', () => {
    expect(parse(valid).virtualLink).toBe('');
    expect(parse({ ...valid, virtualLink: ' https://meet.example.org/wgn ' }).virtualLink).toBe('https://meet.example.org/wgn');
    expect(issues({ ...valid, virtualLink: 'http://zoom.example.com/j/1' })).toEqual({});
    expect(issues({ ...valid, virtualLink: 'javascript:alert(1)' })).toEqual({
      virtualLink: 'The meeting link must start with http:// or https://',
    });
    expect(issues({ ...valid, virtualLink: 'ftp://files.example.org' })).toEqual({
      virtualLink: 'The meeting link must start with http:// or https://',
    });
  });
});

describe('event form schema: defaults and normalised output', () => {
  it('fills every default', () => {
    expect(parse(valid)).toEqual({
      title: 'WGN reunion',
      description: '',
      eventType: 'other',
      location: '',
      address: null,
      geo: null,
      isVirtual: false,
      virtualLink: '',
      startDate: valid.startDate,
      endDate: valid.endDate,
      allDay: false,
      isRecurring: false,
      recurrenceRule: '',
      maxAttendees: null,
      isPublic: true,
      waitlist: true,
      tags: [],
      mediaId: null,
    });
  });

  it('takes an address (empty parts make none) and coordinates within their ranges', () => {
    expect(parse({ ...valid, address: { city: ' Louisville ', country: 'United States' } }).address).toEqual({
      street: '',
      city: 'Louisville',
      region: '',
      postalCode: '',
      country: 'United States',
    });
    expect(parse({ ...valid, address: { street: ' ' } }).address).toBeNull();
    expect(parse({ ...valid, geo: { lat: '38.25', lon: -85.76 } }).geo).toEqual({ lat: 38.25, lon: -85.76 });
    for (const geo of [
      { lat: 90.5, lon: 0 },
      { lat: 0, lon: -181 },
      { lat: 'north', lon: 0 },
      { lat: '', lon: 1 },
    ])
      expect(v.safeParse(EventSchema, { ...valid, geo }).success).toBe(false);
  });

  it('takes dates as ISO strings or Date values and gives ISO strings in UTC', () => {
    const output = parse({ ...valid, startDate: new Date('2026-07-04T18:00:00Z'), endDate: '2026-07-04T16:00:00-05:00' });
    expect(output.startDate).toBe('2026-07-04T18:00:00.000Z');
    expect(output.endDate).toBe('2026-07-04T21:00:00.000Z');
  });

  it('trims tags and drops empty and repeated ones', () => {
    expect(parse({ ...valid, tags: [' wgn ', 'wgn', '', '  ', 'radio'] }).tags).toEqual(['wgn', 'radio']);
  });

  it('treats null optional texts as empty', () => {
    expect(parse({ ...valid, description: null, location: null, virtualLink: null })).toMatchObject({
      description: '',
      location: '',
      virtualLink: '',
    });
  });
});

describe('RSVP body', () => {
  it('takes the three statuses only', () => {
    for (const status of ['attending', 'maybe', 'not_attending']) expect(v.parse(RsvpSchema, { status })).toEqual({ status });
    expect(v.safeParse(RsvpSchema, { status: 'going' }).success).toBe(false);
  });
});
