/**
 * One date of a recurring event cancelled or moved alone (docs/domain/events.md#recurring-events), through the whole
 * site to a real SMTP server: the refusals (a date the series lacks, one already cancelled, someone else's event), the
 * calendar's reading (the cancelled date listed as cancelled, the moved one at its new time with its RSVPs), the
 * calendar file's EXDATE and RECURRENCE-ID, and the mailed files imported into khal, a real calendar client: a moved
 * date appears at its new time and not the old, a cancelled date is gone while the others stay, and a cancelled series
 * is cancelled on every date.
 */
import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import type { TestSite } from '../../support/site';
import { registerMember, type Browser } from '../../support/http';
import { calendarText, mailedCastSite, withKhal, type Attendee } from '../../support/calendars';
import { allDelivered, type CountingSmtp } from '../subscriptions/delivery-fixtures';

let smtp: CountingSmtp;
let site: TestSite;
let admin: Browser;
let member: Attendee;
let other: Attendee;
mailedCastSite('https://community.example.org', (started) => ({ smtp, site, admin, member, other } = started));

/** Tuesdays at 7 PM in Chicago, four times from May 6, 2031. */
const series = (title: string) => ({
  title,
  location: 'Studio B',
  startDate: '2031-05-07T00:00:00Z',
  endDate: '2031-05-07T02:00:00Z',
  recurrenceRule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4',
});
const SECOND = '2031-05-14T00:00:00.000Z';
const THIRD = '2031-05-21T00:00:00.000Z';
/** The second date moved to Wednesday, May 14, 8 PM in Chicago. */
const MOVED = { startDate: '2031-05-15T01:00:00.000Z', endDate: '2031-05-15T03:00:00.000Z' };
/** What a khal in Chicago lists of `title` in May and June 2031. */
const khalView = (title: string) => ({
  zone: 'America/Chicago',
  format: '{status}{title} {start}',
  from: '2031-05-01',
  span: '60d',
  title,
});

describe('one date of a recurring event', () => {
  it('is cancelled or moved by its organiser or staff alone, and refused for a date the series lacks or one cancelled', async () => {
    const id = (await admin.post('/api/events', series('Refusals'))).body.id as string;
    // A member may not change staff's event; a date the series lacks is 400, on its field.
    expect((await member.browser.post(`/api/events/${id}/occurrences/cancel`, { occurrence: SECOND })).status).toBe(403);
    const wrong = await admin.post(`/api/events/${id}/occurrences/cancel`, { occurrence: '2031-05-15T00:00:00Z' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ occurrence: 'This event has no occurrence starting then' });
    expect((await admin.post(`/api/events/${id}/occurrences/move`, { occurrence: SECOND, startDate: MOVED.startDate })).status).toBe(400);

    const cancelled = await admin.post(`/api/events/${id}/occurrences/cancel`, { occurrence: THIRD, reason: 'Studio closed' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ occurrenceStart: THIRD, startDate: THIRD, isCancelled: true });
    expect((await admin.post(`/api/events/${id}/occurrences/cancel`, { occurrence: THIRD })).status).toBe(409);
    expect((await admin.post(`/api/events/${id}/occurrences/move`, { occurrence: THIRD, ...MOVED })).status).toBe(409);
    // A cancelled date takes no RSVPs; the others do.
    expect((await member.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending', occurrence: THIRD })).status).toBe(422);
    // A date may not move onto another's start.
    expect(
      (
        await admin.post(`/api/events/${id}/occurrences/move`, {
          occurrence: SECOND,
          startDate: '2031-05-28T00:00:00Z',
          endDate: '2031-05-28T01:00:00Z',
        })
      ).status,
    ).toBe(409);
    // A one-off event has no dates to change alone.
    const once = (await admin.post('/api/events', { title: 'Once', startDate: '2031-05-07T00:00:00Z', endDate: '2031-05-07T01:00:00Z' }))
      .body.id as string;
    expect((await admin.post(`/api/events/${once}/occurrences/cancel`, { occurrence: '2031-05-07T00:00:00Z' })).status).toBe(422);
  });

  it('shows a cancelled date as cancelled and a moved one at its new time with its RSVPs, in lists and the calendar file', async () => {
    const id = (await admin.post('/api/events', series('Listed'))).body.id as string;
    expect((await member.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending', occurrence: SECOND })).status).toBe(200);
    const moved = await admin.post(`/api/events/${id}/occurrences/move`, { occurrence: SECOND, ...MOVED });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ occurrenceStart: SECOND, ...MOVED, attendeeCount: 1 });
    expect((await admin.post(`/api/events/${id}/occurrences/cancel`, { occurrence: THIRD })).status).toBe(200);

    const listed = (await member.browser.get('/api/events?from=2031-05-01T00:00:00Z&to=2031-06-01T00:00:00Z&q=listed')).body.items;
    expect(
      listed.map((item: { occurrenceStart: string; startDate: string; isCancelled: boolean; attendeeCount: number }) => [
        item.occurrenceStart,
        item.startDate,
        item.isCancelled,
        item.attendeeCount,
      ]),
    ).toEqual([
      ['2031-05-07T00:00:00.000Z', '2031-05-07T00:00:00.000Z', false, 0],
      [SECOND, MOVED.startDate, false, 1],
      [THIRD, THIRD, true, 0],
      ['2031-05-28T00:00:00.000Z', '2031-05-28T00:00:00.000Z', false, 0],
    ]);
    // The moved date is listed on its new day, not its old one; the member's RSVP stays with it.
    const onDay = async (day: string) =>
      (await member.browser.get(`/api/events?day=${day}&q=listed`)).body.items.map((item: { startDate: string }) => item.startDate);
    expect(await onDay('2031-05-13')).toEqual([]);
    expect(await onDay('2031-05-14')).toEqual([MOVED.startDate]);
    expect((await member.browser.get(`/api/events/${id}?occurrence=${SECOND}`)).body).toMatchObject({ ...MOVED, myRsvp: 'attending' });

    const text = (await member.browser.get(`/api/events/${id}/ics`)).body as string;
    expect(text).toContain('EXDATE;TZID=America/Chicago:20310520T190000\r\n');
    expect(text).toContain('RECURRENCE-ID;TZID=America/Chicago:20310513T190000\r\n');
    expect(text).toContain('DTSTART;TZID=America/Chicago:20310514T200000\r\n');
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getAllSubcomponents('vevent')).toHaveLength(2);
    const feed = (await member.browser.get('/api/calendar.ics')).body as string;
    expect(feed).toContain('EXDATE;TZID=America/Chicago:20310520T190000\r\n');
    expect(feed).toContain('RECURRENCE-ID;TZID=America/Chicago:20310513T190000\r\n');
  });

  it('mails the people of a moved date, then of a cancelled date, then of the cancelled series: khal follows each', async () => {
    const title = 'Khal tape club';
    const id = (await admin.post('/api/events', series(title))).body.id as string;
    const third = await registerMember(site.url);
    const fresh = await registerMember(site.url);
    const member = { browser: fresh.browser, email: fresh.user.email };
    await member.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending', occurrence: SECOND });
    await other.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending', occurrence: THIRD });
    await third.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });

    expect((await admin.post(`/api/events/${id}/occurrences/move`, { occurrence: SECOND, ...MOVED })).status).toBe(200);
    await allDelivered(site.services);
    expect(smtp.to(member.email).map((mail) => mail.subject)).toEqual([`Moved: ${title}`]);
    expect(smtp.to(member.email)[0]!.text).toContain('Wednesday, May 14, 2031');
    // Only the people of that date are told.
    expect(smtp.to(other.email)).toEqual([]);
    expect(smtp.to(third.user.email)).toEqual([]);

    expect((await admin.post(`/api/events/${id}/occurrences/cancel`, { occurrence: THIRD, reason: 'Studio closed' })).status).toBe(200);
    await allDelivered(site.services);
    expect(smtp.to(other.email).map((mail) => mail.subject)).toEqual([
      `Cancelled: ${title} on Tuesday, May 20, 2031 · 7:00 PM – 9:00 PM CDT`,
    ]);
    expect(smtp.to(other.email)[0]!.text).toContain('The organizer wrote: Studio closed');
    expect(smtp.to(member.email)).toHaveLength(1);

    await withKhal(khalView(title), async (khal) => {
      // The moved date appears at its new time, not the old; the others stay.
      expect(await khal.take(await calendarText(smtp.to(member.email)[0]!))).toEqual([
        `CONFIRMED ${title} 2031-05-06 19:00`,
        `CONFIRMED ${title} 2031-05-14 20:00`,
        `CONFIRMED ${title} 2031-05-20 19:00`,
        `CONFIRMED ${title} 2031-05-27 19:00`,
      ]);
      // The cancelled date is gone; the moved one and the others stay.
      expect(await khal.take(await calendarText(smtp.to(other.email)[0]!))).toEqual([
        `CONFIRMED ${title} 2031-05-06 19:00`,
        `CONFIRMED ${title} 2031-05-14 20:00`,
        `CONFIRMED ${title} 2031-05-27 19:00`,
      ]);
    });

    // The series cancelled: everyone of every date is told, once, and no date of it stays confirmed.
    expect((await admin.post(`/api/events/${id}/cancel`)).status).toBe(200);
    await allDelivered(site.services);
    for (const address of [member.email, other.email, third.user.email])
      expect(
        smtp
          .to(address)
          .map((mail) => mail.subject)
          .at(-1),
      ).toBe(`Cancelled: ${title}`);
    const cancellation = await calendarText(smtp.to(third.user.email).at(-1)!);
    expect(cancellation).toContain('METHOD:CANCEL');
    await withKhal(khalView(title), async (khal) => {
      await khal.take(await calendarText(smtp.to(other.email)[0]!));
      const shown = await khal.take(cancellation);
      expect(shown.filter((line) => line.startsWith('CONFIRMED'))).toEqual([]);
    });
    // And members are told in the site too.
    const told = (await member.browser.get('/api/notifications')).body.items as { kind: string; text: string }[];
    expect(told.map((n) => n.text)).toContain(`One date of “${title}” moved: see its new time`);
  }, 90_000);
});
