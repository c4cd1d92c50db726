/**
 * Recurring events over HTTP: a rule on create, checked and written back; the series' occurrences in the calendar's
 * month and list reads and its `?day=` lists, each with `occurrenceStart`, keeping 7 PM in Chicago across the change
 * to daylight time; RSVP per occurrence with its own places and waiting list; a later date answered alone in "my
 * events", the private feed and the export; the `.ics` with its RRULE, read by ical.js and imported into khal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { startTestSite, type TestSite } from '../../support/site';
import { createEvent } from '../../support/content';
import { Browser, registerCast } from '../../support/http';
import { withKhal } from '../../support/calendars';

let site: TestSite;
let admin: Browser;
let member: Browser;
let other: Browser;

/** Tuesdays at 7 PM in Chicago (the site's zone), ten times from January 8, 2030: the tenth, March 12, is in daylight time. */
const TAPE_NIGHT = {
  title: 'Tape night',
  startDate: '2030-01-09T01:00:00Z',
  endDate: '2030-01-09T03:00:00Z',
  recurrenceRule: 'RRULE:freq=weekly;byday=TU;count=10',
  maxAttendees: 1,
};
const SECOND = '2030-01-16T01:00:00.000Z';
let series: string;

beforeAll(async () => {
  site = await startTestSite();
  ({
    admin: { browser: admin },
    member: { browser: member },
    other: { browser: other },
  } = await registerCast(site.url));
  series = await createEvent(admin, TAPE_NIGHT);
});
afterAll(() => site?.close());

const idsAndStarts = (items: { id: string; startDate: string; occurrenceStart?: string }[]) =>
  items.map((item) => [item.id, item.startDate, item.occurrenceStart]);

describe('a recurring event', () => {
  it('takes a rule on create, written back in one order, and refuses a rule it cannot keep on the field', async () => {
    const created = (await admin.get(`/api/events/${series}`)).body;
    expect(created).toMatchObject({
      isRecurring: true,
      recurrenceRule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=10',
      startDate: '2030-01-09T01:00:00.000Z',
    });

    const bad = async (recurrenceRule: string) => {
      const answer = await admin.post('/api/events', { ...TAPE_NIGHT, recurrenceRule });
      expect(answer.status).toBe(400);
      return answer.body.fields.recurrenceRule as string;
    };
    expect(await bad('FREQ=DAILY')).toBe('Events repeat weekly or monthly: FREQ must be WEEKLY or MONTHLY');
    expect(await bad('FREQ=WEEKLY;COUNT=501')).toBe('COUNT must be a whole number from 1 to 500');
    expect(await bad('FREQ=WEEKLY;BYDAY=WE')).toBe('The start date (a Tuesday) must be one of the days the event repeats on');
    expect(await bad('FREQ=WEEKLY;UNTIL=20291231')).toBe('The repeat must end on or after the start date');
    // An edit is checked as a create is.
    expect((await admin.put(`/api/events/${series}`, { ...TAPE_NIGHT, recurrenceRule: 'FREQ=MONTHLY;BYDAY=1WE' })).status).toBe(400);
  });

  it('shows its occurrences in a month, merged by start with one-off events, page by page', async () => {
    const once = await createEvent(admin, { title: 'Open house', startDate: '2030-01-20T18:00:00Z', endDate: '2030-01-20T20:00:00Z' });
    const month = { from: '2030-01-01T06:00:00.000Z', to: '2030-02-01T06:00:00.000Z' };
    const all = (await member.get(`/api/events?from=${month.from}&to=${month.to}`)).body;
    expect(idsAndStarts(all.items)).toEqual([
      [series, '2030-01-09T01:00:00.000Z', '2030-01-09T01:00:00.000Z'],
      [series, SECOND, SECOND],
      [once, '2030-01-20T18:00:00.000Z', undefined],
      [series, '2030-01-23T01:00:00.000Z', '2030-01-23T01:00:00.000Z'],
      [series, '2030-01-30T01:00:00.000Z', '2030-01-30T01:00:00.000Z'],
    ]);
    // Each occurrence lasts as the series does.
    expect(all.items[1]).toMatchObject({ endDate: '2030-01-16T03:00:00.000Z', isRecurring: true, title: 'Tape night' });

    const pages: unknown[][] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string; startDate: string; occurrenceStart?: string }[]; nextCursor: string | null } = (
        await member.get(`/api/events?from=${month.from}&to=${month.to}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      ).body;
      pages.push(idsAndStarts(page.items));
      cursor = page.nextCursor;
    } while (cursor && pages.length < 5);
    expect(pages.flat()).toEqual(idsAndStarts(all.items));
    expect(pages).toHaveLength(3);
  });

  it('keeps 7 PM in Chicago after the clocks change, and ends after its tenth time', async () => {
    const march = (await member.get('/api/events?from=2030-03-01T00:00:00Z&to=2030-04-01T00:00:00Z')).body.items;
    // Daylight time from March 10: 7 PM is 00:00 UTC on the 13th, where it was 01:00 UTC on the 6th.
    expect(march.map((item: { occurrenceStart: string }) => item.occurrenceStart)).toEqual([
      '2030-03-06T01:00:00.000Z',
      '2030-03-13T00:00:00.000Z',
    ]);
    // The list from a date onward reaches the series too.
    const upcoming = (await member.get('/api/events?from=2030-03-10T00:00:00Z')).body.items;
    expect(idsAndStarts(upcoming)).toEqual([[series, '2030-03-13T00:00:00.000Z', '2030-03-13T00:00:00.000Z']]);
  });

  it('lists an occurrence on its day, read in the site’s zone or the one asked for', async () => {
    // January 15 in Chicago; already the 16th in UTC.
    expect(idsAndStarts((await member.get('/api/events?day=2030-01-15')).body.items)).toEqual([[series, SECOND, SECOND]]);
    expect(
      (await member.get('/api/events?day=2030-01-16&tz=UTC')).body.items.map((item: { occurrenceStart: string }) => item.occurrenceStart),
    ).toEqual([SECOND]);
    expect((await member.get('/api/events?day=2030-01-17')).body.items).toEqual([]);
  });

  it('takes RSVPs per occurrence, each with its own places and waiting list', async () => {
    const second = { status: 'attending', occurrence: SECOND };
    expect((await member.put(`/api/events/${series}/rsvp/me`, second)).body).toEqual({
      status: 'attending',
      attending: 1,
      maybe: 0,
      notAttending: 0,
      waitlistCount: 0,
    });
    // The second is full: in line. The first still has its place.
    expect((await other.put(`/api/events/${series}/rsvp/me`, second)).body).toMatchObject({
      status: 'waitlisted',
      position: 1,
      attending: 1,
    });
    expect((await other.put(`/api/events/${series}/rsvp/me`, { status: 'attending' })).body).toMatchObject({
      status: 'attending',
      attending: 1,
      waitlistCount: 0,
    });

    expect((await other.get(`/api/events/${series}?occurrence=${SECOND}`)).body).toMatchObject({
      startDate: SECOND,
      occurrenceStart: SECOND,
      attendeeCount: 1,
      waitlistCount: 1,
      myRsvp: 'waitlisted',
      myWaitlistPosition: 1,
    });
    expect((await other.get(`/api/events/${series}`)).body).toMatchObject({ attendeeCount: 1, waitlistCount: 0, myRsvp: 'attending' });
    expect((await member.get(`/api/events/${series}/rsvp/me`)).body).toEqual({ status: null });
    // The attendee list is the first occurrence's; the member's "my events" holds the second date, which they answered alone.
    expect((await admin.get(`/api/events/${series}/attendees`)).body.items).toEqual([
      expect.objectContaining({ status: 'attending', member: expect.objectContaining({ name: 'Otto Other' }) }),
    ]);
    expect((await member.get('/api/user/events')).body.items).toEqual([
      expect.objectContaining({ id: series, startDate: SECOND, occurrenceStart: SECOND, myRsvp: 'attending' }),
    ]);
    // The organiser's list of the second occurrence: its own answers and line.
    expect((await admin.get(`/api/events/${series}/attendees?occurrence=${SECOND}`)).body.items).toEqual([
      { member: expect.objectContaining({ name: 'Mona Member' }), status: 'attending', at: expect.any(String) },
      { member: expect.objectContaining({ name: 'Otto Other' }), status: 'waitlisted', position: 1, at: expect.any(String) },
    ]);
    const csv = (await admin.get(`/api/events/${series}/attendees.csv?occurrence=${SECOND}`)).body as string;
    expect(csv).toContain('Mona Member');
    expect((await admin.get(`/api/events/${series}/attendees?occurrence=2030-01-17T01:00:00Z`)).status).toBe(400);
    expect((await member.get(`/api/events/${series}/attendees-count?occurrence=2030-01-16T01:00Z`)).body).toEqual({
      attending: 1,
      maybe: 0,
      notAttending: 0,
    });
    const listed = (await member.get('/api/events?from=2030-01-15T00:00:00Z&to=2030-01-17T00:00:00Z')).body.items;
    expect(listed).toEqual([expect.objectContaining({ occurrenceStart: SECOND, attendeeCount: 1, waitlistCount: 1 })]);

    // The place freed in the second goes to its first in line.
    expect((await member.delete(`/api/events/${series}/rsvp/me?occurrence=${SECOND}`)).body).toMatchObject({
      status: null,
      attending: 1,
      waitlistCount: 0,
    });
    expect((await other.get(`/api/events/${series}/rsvp/me?occurrence=${SECOND}`)).body).toEqual({ status: 'attending' });

    // A start the series does not have is refused on its field.
    const wrong = await member.put(`/api/events/${series}/rsvp/me`, { status: 'attending', occurrence: '2030-01-17T01:00:00Z' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ occurrence: 'This event has no occurrence starting then' });
    expect((await member.put(`/api/events/${series}/rsvp/me`, { status: 'attending', occurrence: '2030-03-19T00:00:00Z' })).status).toBe(
      400,
    );
  });

  it('puts later dates answered alone in my events, the private feed and the export, each at its date', async () => {
    // Tuesdays at 7 PM in Chicago from January 7, 2031, five times.
    const swap = await createEvent(admin, {
      title: 'Record swap',
      startDate: '2031-01-08T01:00:00Z',
      endDate: '2031-01-08T03:00:00Z',
      recurrenceRule: 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=5',
    });
    const [third, fourth] = ['2031-01-22T01:00:00.000Z', '2031-01-29T01:00:00.000Z'];
    const movedFourth = { startDate: '2031-01-30T01:00:00.000Z', endDate: '2031-01-30T03:00:00.000Z' };
    for (const occurrence of [third, fourth])
      expect((await member.put(`/api/events/${swap}/rsvp/me`, { status: 'attending', occurrence })).status).toBe(200);
    expect((await admin.post(`/api/events/${swap}/occurrences/cancel`, { occurrence: third, reason: 'Hall booked' })).status).toBe(200);
    expect((await admin.post(`/api/events/${swap}/occurrences/move`, { occurrence: fourth, ...movedFourth })).status).toBe(200);

    // My events: each date where it now is, a page at a time.
    const mine = async (query = '') =>
      (await member.get(`/api/user/events${query}`)).body as { items: Record<string, unknown>[]; nextCursor: string | null };
    const swapDates = (await mine()).items.filter((item) => item.id === swap);
    expect(swapDates).toEqual([
      expect.objectContaining({ startDate: third, occurrenceStart: third, isCancelled: true, myRsvp: 'attending' }),
      expect.objectContaining({ startDate: movedFourth.startDate, occurrenceStart: fourth, isCancelled: false, myRsvp: 'attending' }),
    ]);
    const paged: Record<string, unknown>[] = [];
    for (let cursor: string | null = null, pages = 0; pages === 0 || cursor; pages += 1) {
      const page = await mine(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...page.items);
      cursor = page.nextCursor;
    }
    expect(paged).toEqual((await mine()).items);

    // The private feed: each date as an event of its own, no rule; the cancelled one says so.
    const feedUrl = (await member.get('/api/me/calendar-url')).body.url as string;
    const datesIn = async () =>
      new ICAL.Component(ICAL.parse(await (await fetch(feedUrl)).text()))
        .getAllSubcomponents('vevent')
        .filter((vevent) => String(vevent.getFirstPropertyValue('uid')).startsWith(swap))
        .map((vevent) => ({
          uid: String(vevent.getFirstPropertyValue('uid')).split('@')[0],
          start: (vevent.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
          status: vevent.getFirstPropertyValue('status'),
          rule: vevent.getFirstPropertyValue('rrule') !== null,
        }));
    expect(await datesIn()).toEqual([
      { uid: `${swap}-2031-01-22T01:00:00Z`, start: third, status: 'CANCELLED', rule: false },
      { uid: `${swap}-2031-01-29T01:00:00Z`, start: movedFourth.startDate, status: 'CONFIRMED', rule: false },
    ]);

    // The export: each answer at its date.
    const rsvps = (await member.get('/api/me/export')).body.rsvps as { event: { id: string; startsAt: string } }[];
    expect(rsvps.filter((rsvp) => rsvp.event.id === swap).map((rsvp) => rsvp.event.startsAt)).toEqual([third, movedFourth.startDate]);

    // Answering the series' first date puts the whole series in the feed, its rule with it, instead of single dates.
    expect((await member.put(`/api/events/${swap}/rsvp/me`, { status: 'attending' })).status).toBe(200);
    expect((await datesIn()).filter((date) => date.rule)).toEqual([
      { uid: swap, start: '2031-01-08T01:00:00.000Z', status: 'CONFIRMED', rule: true },
    ]);

    // An edit of the series that takes its later dates away (now on Wednesdays) leaves the dates answered alone out.
    const wednesdays = {
      startDate: '2031-01-09T01:00:00Z',
      endDate: '2031-01-09T03:00:00Z',
      recurrenceRule: 'RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=5',
    };
    expect((await admin.put(`/api/events/${swap}`, { title: 'Record swap', ...wednesdays })).status).toBe(200);
    expect((await mine()).items.filter((item) => item.id === swap)).toEqual([
      expect.objectContaining({ startDate: '2031-01-09T01:00:00.000Z', occurrenceStart: '2031-01-09T01:00:00.000Z', myRsvp: 'attending' }),
    ]);
  });

  it('keeps a one-off event as it was: no occurrence needed, its own start accepted, any other refused', async () => {
    const once = await createEvent(admin, { title: 'Single', startDate: '2030-05-01T18:00:00Z', endDate: '2030-05-01T19:00:00Z' });
    expect((await member.put(`/api/events/${once}/rsvp/me`, { status: 'maybe' })).body).toMatchObject({ status: 'maybe', maybe: 1 });
    expect(
      (await member.put(`/api/events/${once}/rsvp/me`, { status: 'attending', occurrence: '2030-05-01T18:00:00Z' })).body,
    ).toMatchObject({
      status: 'attending',
      attending: 1,
      maybe: 0,
    });
    expect((await member.put(`/api/events/${once}/rsvp/me`, { status: 'attending', occurrence: '2030-05-08T18:00:00Z' })).status).toBe(400);
    const single = (await member.get(`/api/events/${once}`)).body;
    expect(single).toMatchObject({ isRecurring: false, recurrenceRule: '', myRsvp: 'attending' });
    expect(single.occurrenceStart).toBeUndefined();
  });

  it('repeats monthly on the second Tuesday', async () => {
    const monthly = await createEvent(admin, {
      title: 'Board meeting',
      startDate: '2030-06-12T00:00:00Z', // Tuesday, June 11, 7 PM CDT
      endDate: '2030-06-12T01:00:00Z',
      recurrenceRule: 'FREQ=MONTHLY;BYDAY=2TU;UNTIL=20300930',
    });
    const items = (await member.get('/api/events?from=2030-06-01T00:00:00Z&to=2031-01-01T00:00:00Z&q=board')).body.items;
    expect(items.map((item: { id: string; occurrenceStart: string }) => [item.id, item.occurrenceStart])).toEqual(
      ['2030-06-12', '2030-07-10', '2030-08-14', '2030-09-11'].map((day) => [monthly, `${day}T00:00:00.000Z`]),
    );
  });

  it('carries its RRULE in the .ics in the site’s zone: ical.js and khal see 7 PM every time', async () => {
    const file = await new Browser(site.url).get(`/api/events/${series}/ics`);
    expect(file.status).toBe(200);
    const text = file.body as string;
    expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10\r\n');
    expect(text).toContain('DTSTART;TZID=America/Chicago:20300108T190000\r\n');
    const calendar = new ICAL.Component(ICAL.parse(text));
    for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
    const expand = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!).iterator();
    const starts: string[] = [];
    for (let next = expand.next(); next; next = expand.next()) starts.push(next.toJSDate().toISOString());
    expect(starts).toHaveLength(10);
    expect(starts.at(-1)).toBe('2030-03-13T00:00:00.000Z');
    expect(starts[1]).toBe(SECOND);

    const view = { zone: 'America/Chicago', format: '{title} {start}', from: '2030-03-01', span: '30d', title: 'Tape night' };
    const shown = await withKhal(view, (khal) => khal.take(text));
    expect(shown).toEqual(['Tape night 2030-03-05 19:00', 'Tape night 2030-03-12 19:00']);
  }, 30_000);
});
