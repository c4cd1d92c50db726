/**
 * Mail to the people of an event, through the whole site to a real SMTP server: the promoted member's mail, a change
 * of time or place with the updated .ics (METHOD:REQUEST, SEQUENCE raised), a cancellation (METHOD:CANCEL,
 * STATUS:CANCELLED), each exactly once; an edit of the description mails nobody; reminders a day before, moved with
 * the event, dropped for a member who left or turned them off, and neither lost nor doubled by a Redis flush. The
 * calendar files are read with ical.js, an independent parser, and imported into khal, a real calendar client.
 */
import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import type { TestSite } from '../../support/site';
import { registerMember, type Browser } from '../../support/http';
import { calendarText, mailedCastSite, withKhal, type Attendee } from '../../support/calendars';
import { allDelivered, type CountingSmtp, type ReceivedMail } from '../subscriptions/delivery-fixtures';
import { REMINDER_BEFORE_MS } from '../../../shared/events/constants';
import { mailOutbox } from '../../../workers/subscriptions/outbox';

const PUBLIC_URL = 'https://community.example.org';
let smtp: CountingSmtp;
let site: TestSite;
let admin: Browser;
let member: Attendee;
let other: Attendee;
mailedCastSite(PUBLIC_URL, (started) => ({ smtp, site, admin, member, other } = started));

/** The calendar part of a mail, as sent and parsed: its METHOD and its one VEVENT. */
async function calendarOf(mail: ReceivedMail) {
  const text = await calendarText(mail);
  const calendar = new ICAL.Component(ICAL.parse(text));
  return { text, method: calendar.getFirstPropertyValue('method'), vevent: calendar.getFirstSubcomponent('vevent')! };
}
const subjects = (address: string) => smtp.to(address).map((mail) => mail.subject);
const event = (overrides: Record<string, unknown> = {}) => ({
  title: 'Transmitter open day',
  location: 'Tower site',
  startDate: '2031-05-10T15:00:00Z',
  endDate: '2031-05-10T18:00:00Z',
  maxAttendees: 1,
  ...overrides,
});

describe('mail to the people of an event', () => {
  it('tells the promoted member, then every attendee of a new time or place, then of the cancellation, each once', async () => {
    const created = await admin.post('/api/events', event());
    const id = created.body.id as string;
    expect((await member.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).body.status).toBe('attending');
    expect((await other.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).body.status).toBe('waitlisted');
    const third = await registerMember(site.url);
    expect((await third.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).body).toMatchObject({
      status: 'waitlisted',
      position: 2,
    });

    // The member gives up the place: the first in line has it, and is told.
    await member.browser.delete(`/api/events/${id}/rsvp/me`);
    await allDelivered(site.services);
    expect(subjects(other.email)).toEqual(['A place is yours: Transmitter open day']);
    const promoted = smtp.to(other.email)[0]!;
    expect(promoted.text).toContain('you are now attending');
    expect(promoted.text).toContain(`${PUBLIC_URL}/events/${id}`);
    const invitation = await calendarOf(promoted);
    expect(invitation.method).toBe('REQUEST');
    expect(invitation.vevent.getFirstPropertyValue('url')).toBe(`${PUBLIC_URL}/events/${id}`);
    expect(String(invitation.vevent.getFirstPropertyValue('attendee'))).toBe(`mailto:${other.email}`);
    expect(subjects(member.email)).toEqual([]);

    // A new description is no news; a new time is, to whoever attends (not to those still waiting).
    await admin.put(`/api/events/${id}`, event({ description: 'Bring a hard hat' }));
    await allDelivered(site.services);
    expect(subjects(other.email)).toHaveLength(1);
    await admin.put(
      `/api/events/${id}`,
      event({ description: 'Bring a hard hat', startDate: '2031-05-11T15:00:00Z', endDate: '2031-05-11T18:00:00Z' }),
    );
    await allDelivered(site.services);
    expect(subjects(other.email)).toEqual(['A place is yours: Transmitter open day', 'Changed: Transmitter open day']);
    expect(subjects(third.user.email)).toEqual([]);
    const change = await calendarOf(smtp.to(other.email)[1]!);
    expect(change.method).toBe('REQUEST');
    const changed = new ICAL.Event(change.vevent);
    expect(changed.sequence).toBe(1);
    expect(changed.uid).toBe(`${id}@community.example.org`);
    expect(changed.startDate.toJSDate().toISOString()).toBe('2031-05-11T15:00:00.000Z');
    expect(smtp.to(other.email)[1]!.text).toContain('When: Sunday, May 11, 2031');

    // Cancelled: the attendee and the one still waiting are told, with a file that removes the entry.
    expect((await admin.post(`/api/events/${id}/cancel`)).status).toBe(200);
    await allDelivered(site.services);
    expect(subjects(other.email).at(-1)).toBe('Cancelled: Transmitter open day');
    expect(subjects(third.user.email)).toEqual(['Cancelled: Transmitter open day']);
    const cancellation = await calendarOf(smtp.to(third.user.email)[0]!);
    expect(cancellation.method).toBe('CANCEL');
    expect(cancellation.vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(cancellation.vevent.getFirstPropertyValue('sequence')).toBe(2);
    expect(subjects(other.email)).toHaveLength(3);
    expect(subjects(member.email)).toEqual([]);
  }, 60_000);
});

describe('a real calendar client', () => {
  it('takes the mailed files as one entry that moves and is then cancelled (khal)', async () => {
    const id = (await admin.post('/api/events', event({ title: 'Khal gathering', maxAttendees: null }))).body.id as string;
    const guest = await registerMember(site.url);
    await guest.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    // Each mail goes out before the next change (a change superseded before it is sent is not sent at all).
    await admin.put(
      `/api/events/${id}`,
      event({ title: 'Khal gathering', maxAttendees: null, startDate: '2031-05-12T15:00:00Z', endDate: '2031-05-12T18:00:00Z' }),
    );
    await allDelivered(site.services);
    await admin.put(
      `/api/events/${id}`,
      event({ title: 'Khal gathering', maxAttendees: null, startDate: '2031-05-13T15:00:00Z', endDate: '2031-05-13T18:00:00Z' }),
    );
    await allDelivered(site.services);
    await admin.post(`/api/events/${id}/cancel`);
    await allDelivered(site.services);
    // Mail may arrive in any order; a calendar app applies a file only if its SEQUENCE is newer, so they are taken in
    // that order here (khal itself replaces whatever it holds).
    const files = await Promise.all(smtp.to(guest.user.email).map((mail) => calendarOf(mail)));
    const inOrder = files.toSorted(
      (a, b) => Number(a.vevent.getFirstPropertyValue('sequence')) - Number(b.vevent.getFirstPropertyValue('sequence')),
    );
    expect(inOrder.at(-1)!.method).toBe('CANCEL');

    const view = { zone: 'UTC', format: '{status}{title} {start}', from: '2031-05-01', span: '30d', title: 'Khal gathering' };
    const shown = await withKhal(view, async (khal) => {
      const lists: string[][] = [];
      for (const calendar of inOrder) lists.push(await khal.take(calendar.text));
      return lists;
    });
    // Each file replaced the entry the calendar held: one entry, moved, moved again, then cancelled.
    expect(shown).toEqual([
      ['CONFIRMED Khal gathering 2031-05-12 15:00'],
      ['CONFIRMED Khal gathering 2031-05-13 15:00'],
      ['CANCELLED Khal gathering 2031-05-13 15:00'],
    ]);
  }, 60_000);
});

describe('reminders', () => {
  it('reminds each attendee a day before, at the start as it is then, once, and nobody who left or said no', async () => {
    // Starts a day and a few seconds from now, so the reminders fall due a few seconds into the test.
    const soon = (seconds: number) => new Date(Date.now() + REMINDER_BEFORE_MS + seconds * 1000).toISOString();
    const later = (start: string) => new Date(Date.parse(start) + 3600_000).toISOString();
    const create = async (title: string, start: string) =>
      (await admin.post('/api/events', { title, startDate: start, endDate: later(start) })).body.id as string;
    const plain = await create('Reminded gathering', soon(4));
    const moving = await create('Moving gathering', soon(3));
    const leaving = await create('Left gathering', soon(3));
    const flushed = await create('Flushed gathering', soon(6));
    const [attendee, mover, leaver, quiet, survivor] = await Promise.all(Array.from({ length: 5 }, () => registerMember(site.url)));
    await attendee!.browser.put(`/api/events/${plain}/rsvp/me`, { status: 'attending' });
    await mover!.browser.put(`/api/events/${moving}/rsvp/me`, { status: 'attending' });
    await leaver!.browser.put(`/api/events/${leaving}/rsvp/me`, { status: 'attending' });
    await leaver!.browser.delete(`/api/events/${leaving}/rsvp/me`);
    expect((await quiet!.browser.put('/api/me/event-reminders', { enabled: false })).body).toEqual({ enabled: false });
    expect((await quiet!.browser.get('/api/me/event-reminders')).body).toEqual({ enabled: false });
    await quiet!.browser.put(`/api/events/${plain}/rsvp/me`, { status: 'attending' });
    await survivor!.browser.put(`/api/events/${flushed}/rsvp/me`, { status: 'attending' });
    // The moving gathering moves a few seconds later: its reminder moves with it.
    const moved = soon(8);
    await admin.put(`/api/events/${moving}`, { title: 'Moving gathering', startDate: moved, endDate: later(moved) });
    const ours = new Set([plain, moving, leaving, flushed]);
    const scheduled = async () =>
      (await mailOutbox(site.services.store).find({ sendAt: { $exists: true } })).filter(
        (entry) => entry.cause.kind === 'attendee' && ours.has(entry.cause.eventId),
      );
    await expect.poll(async () => (await scheduled()).length, { timeout: 10_000 }).toBe(6);

    // Redis loses everything (a restart without persistence): the sweeper enqueues the scheduled mail again.
    const { redis, config, subscriptionMail } = site.services;
    const keys = await redis.keys(`${config.redisPrefix}:bull:*`);
    if (keys.length > 0) await redis.del(...keys);
    await subscriptionMail.sweep();

    const reminders = (address: string) => smtp.to(address).filter((mail) => mail.subject.startsWith('Tomorrow:'));
    await expect.poll(() => reminders(attendee!.user.email).length, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => reminders(survivor!.user.email).length, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => reminders(mover!.user.email).length, { timeout: 20_000 }).toBe(1);
    await allDelivered(site.services);
    // Sweeping again, or the moment passing, sends nothing more.
    await subscriptionMail.sweep();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(reminders(attendee!.user.email).map((mail) => mail.subject)).toEqual(['Tomorrow: Reminded gathering']);
    expect(reminders(survivor!.user.email)).toHaveLength(1);
    const moverMail = reminders(mover!.user.email);
    expect(moverMail).toHaveLength(1);
    expect(new ICAL.Event((await calendarOf(moverMail[0]!)).vevent).startDate.toJSDate().toISOString()).toBe(
      new Date(moved).toISOString().replace(/\.\d{3}Z$/u, '.000Z'),
    );
    expect(reminders(leaver!.user.email)).toEqual([]);
    expect(reminders(quiet!.user.email)).toEqual([]);
    // The reminder is a notification in the site too, once.
    const told = async (member: typeof attendee) =>
      ((await member!.browser.get('/api/notifications')).body.items as { kind: string; text: string }[]).filter(
        (n) => n.kind === 'event_reminder',
      );
    await expect.poll(async () => (await told(attendee)).map((n) => n.text)).toEqual(['Tomorrow: “Reminded gathering”']);
    expect(await told(quiet)).toEqual([]);
    expect(await told(leaver)).toEqual([]);
    // The reminder that was scheduled for the old start, and those for the member who left or said no, were dropped.
    expect((await scheduled()).filter((entry) => entry.status === 'dropped')).toHaveLength(3);
  }, 60_000);
});
