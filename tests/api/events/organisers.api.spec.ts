/**
 * What organisers run (docs/domain/events.md#organisers), through the whole site to a real SMTP server: an approved
 * event is cancelled, never rejected (409 USE_CANCEL); who is coming, as JSON and as a CSV file safe to open in a
 * spreadsheet, for the organiser and staff only; a message to the attendees, one mail each through the outbox, at
 * most three a day; and a private event's invite link, which lets a member in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSite } from '../../support/site';
import { Browser, registerCast, registerMember } from '../../support/http';
import { approvedEvent as approved } from '../../support/content';
import { allDelivered, closeMailingSite, startMailingSite, type CountingSmtp } from '../subscriptions/delivery-fixtures';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
let smtp: CountingSmtp;
let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;

beforeAll(async () => {
  ({ smtp, site } = await startMailingSite({ TIME_ZONE: 'America/Chicago', RATE_LIMIT_EVENT_MAX: '1000', RATE_LIMIT_AUTH_MAX: '1000' }));
  cast = await registerCast(site.url);
}, 60_000);
afterAll(() => closeMailingSite(site, smtp));

const event = (overrides: Record<string, unknown> = {}) => ({
  title: 'Transmitter open day',
  location: 'Tower site',
  startDate: '2031-05-10T15:00:00Z',
  endDate: '2031-05-10T18:00:00Z',
  ...overrides,
});
/** A member's event, approved by staff. */
const approvedEvent = (overrides: Record<string, unknown> = {}) => approved(cast.member.browser, cast.staff.browser, event(overrides));
const subjects = (address: string) => smtp.to(address).map((mail) => mail.subject);

describe('rejecting an approved event', () => {
  it('is refused with 409 USE_CANCEL: cancellation is the way, and it tells the attendees', async () => {
    const id = await approvedEvent({ title: 'Approved already' });
    const guest = await registerMember(site.url);
    await guest.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    const refused = await cast.staff.browser.put(`/api/admin/events/${id}/reject`, { reason: 'Changed our minds' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'USE_CANCEL', message: expect.stringMatching(/cancel it instead/) });
    expect((await cast.member.browser.get(`/api/events/${id}`)).body).toMatchObject({ status: 'approved', isCancelled: false });

    expect((await cast.staff.browser.post(`/api/events/${id}/cancel`)).body.isCancelled).toBe(true);
    await allDelivered(site.services);
    expect(subjects(guest.user.email)).toEqual(['Cancelled: Approved already']);
    // Still never rejected, cancelled or not.
    expect((await cast.admin.browser.put(`/api/admin/events/${id}/reject`)).body.error).toBe('USE_CANCEL');
  });

  it('still rejects an event waiting for approval, and a member’s edit held for review (the approved event stays)', async () => {
    const pending = (await cast.member.browser.post('/api/events', event({ title: 'Pending one' }))).body.id as string;
    expect((await cast.staff.browser.put(`/api/admin/events/${pending}/reject`)).body.status).toBe('rejected');
    const edited = await approvedEvent({ title: 'Edited one' });
    await cast.member.browser.put(`/api/events/${edited}`, event({ title: 'Edited one, now with a hall' }));
    expect((await cast.staff.browser.put(`/api/admin/events/${edited}/reject`)).body).toMatchObject({
      status: 'approved',
      title: 'Edited one',
    });
  });
});

describe('who is coming', () => {
  it('lists attending, the waiting list with places, maybe and not attending; and as CSV, escaped and safe in a spreadsheet', async () => {
    const id = await approvedEvent({ title: 'Night shift reunion', maxAttendees: 2 });
    const first = await registerMember(site.url, { firstName: '=HYPERLINK("http://evil.example")', lastName: 'Smith' });
    const second = await registerMember(site.url, { firstName: 'Anne, "Annie"', lastName: 'Jones' });
    const third = await registerMember(site.url, { firstName: '+Plus', lastName: 'Waiter' });
    const fourth = await registerMember(site.url, { firstName: '@At', lastName: 'Later' });
    const maybe = await registerMember(site.url, { firstName: '-Minus', lastName: 'Maybe' });
    const no = await registerMember(site.url, { firstName: 'Nora', lastName: 'No' });
    for (const who of [first, second, third, fourth]) await who.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    await maybe.browser.put(`/api/events/${id}/rsvp/me`, { status: 'maybe' });
    await no.browser.put(`/api/events/${id}/rsvp/me`, { status: 'not_attending' });

    const list = await cast.member.browser.get(`/api/events/${id}/attendees`);
    expect(list.status).toBe(200);
    expect(
      list.body.items.map((item: { member: { id: string }; status: string; position?: number }) => [
        item.member.id,
        item.status,
        item.position,
      ]),
    ).toEqual([
      [first.user.id, 'attending', undefined],
      [second.user.id, 'attending', undefined],
      [third.user.id, 'waitlisted', 1],
      [fourth.user.id, 'waitlisted', 2],
      [maybe.user.id, 'maybe', undefined],
      [no.user.id, 'not_attending', undefined],
    ]);
    expect(list.body.items[1].member.name).toBe('Anne, "Annie" Jones');
    for (const item of list.body.items) expect(Number.isNaN(Date.parse(item.at))).toBe(false);

    const csv = await cast.staff.browser.get(`/api/events/${id}/attendees.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="Night_shift_reunion_2031-05-10_attendees\.csv"/);
    const lines = (csv.body as string).split('\r\n');
    expect(lines[0]).toBe('Name,Status,Position,Answered at');
    const cells = lines.slice(1, 7).map((line) => line.replace(/,\d{4}-\d\d-\d\dT[\d:.]+Z$/u, ''));
    expect(cells).toEqual([
      // A formula is an apostrophe'd text; quotes doubled and the cell quoted where it holds a comma or a quote.
      `"'=HYPERLINK(""http://evil.example"") Smith",Attending,`,
      '"Anne, ""Annie"" Jones",Attending,',
      "'+Plus Waiter,Waiting list,1",
      "'@At Later,Waiting list,2",
      "'-Minus Maybe,Maybe,",
      'Nora No,Not attending,',
    ]);
    expect(lines.slice(7)).toEqual(['']);
  });

  it('is for the organizer, staff and admin: others 403, visitors 401, an unknown or unseen event 404', async () => {
    const id = await approvedEvent({ title: 'Access checks' });
    const hidden = (await cast.member.browser.post('/api/events', event({ title: 'Hidden', isPublic: false }))).body.id as string;
    for (const path of [`/api/events/${id}/attendees`, `/api/events/${id}/attendees.csv`]) {
      for (const who of [cast.member, cast.staff, cast.admin]) expect((await who.browser.get(path)).status, path).toBe(200);
      expect((await cast.other.browser.get(path)).status, path).toBe(403);
      expect((await cast.subscriber.browser.get(path)).status, path).toBe(403);
      expect((await new Browser(site.url).get(path)).status, path).toBe(401);
    }
    for (const path of [
      `/api/events/${UNKNOWN_ID}/attendees`,
      `/api/events/${UNKNOWN_ID}/attendees.csv`,
      `/api/events/${hidden}/attendees`,
      `/api/events/${hidden}/attendees.csv`,
    ])
      expect((await cast.other.browser.get(path)).status, path).toBe(404);
    expect((await cast.admin.browser.get(`/api/events/${UNKNOWN_ID}/attendees.csv`)).status).toBe(404);
  });
});

describe('a message to the attendees', () => {
  it('mails each attendee exactly once (and those waiting when asked), plain text escaped in HTML, at most 3 a day', async () => {
    const id = await approvedEvent({ title: 'Tube swap', maxAttendees: 2 });
    const [a, b, waiting, maybe] = await Promise.all([1, 2, 3, 4].map(() => registerMember(site.url)));
    for (const who of [a!, b!, waiting!]) await who.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    await maybe!.browser.put(`/api/events/${id}/rsvp/me`, { status: 'maybe' });

    const body = 'Bring your <b>spare</b> tubes & valves.\n\nParking is behind the hall.\nSee you!';
    const sent = await cast.member.browser.post(`/api/events/${id}/message`, { subject: 'What to bring', body, to: 'attending' });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ recipients: 2, remainingToday: 2 });
    await allDelivered(site.services);
    for (const who of [a!, b!]) expect(subjects(who.user.email)).toEqual(['What to bring · Tube swap']);
    expect(subjects(waiting!.user.email)).toEqual([]);
    expect(subjects(maybe!.user.email)).toEqual([]);
    const mail = smtp.to(a!.user.email)[0]!;
    expect(mail.text).toContain('Bring your <b>spare</b> tubes & valves.');
    expect(mail.text).toContain('change your RSVP on the event page');
    expect(mail.html).toContain('Bring your &lt;b&gt;spare&lt;/b&gt; tubes &amp; valves.');
    expect(mail.html).toContain('Parking is behind the hall.<br>See you!');
    expect(mail.html).not.toContain('<b>spare</b>');
    expect(mail.html).toContain(`/events/${id}`);

    // Staff may write too; with those waiting.
    const second = await cast.staff.browser.post(`/api/events/${id}/message`, {
      subject: 'Doors at six',
      body: 'Doors open at 6.',
      to: 'attending+waitlisted',
    });
    expect(second.body).toMatchObject({ recipients: 3, remainingToday: 1 });
    await allDelivered(site.services);
    expect(subjects(waiting!.user.email)).toEqual(['Doors at six · Tube swap']);
    expect(smtp.to(waiting!.user.email)[0]!.text).toContain('you are on its waiting list');

    expect(
      (
        await cast.member.browser.post(`/api/events/${id}/message`, {
          subject: 'Third\r\nBcc: x@example.org',
          body: 'Three.',
          to: 'attending',
        })
      ).status,
    ).toBe(202);
    const fourth = await cast.member.browser.post(`/api/events/${id}/message`, { subject: 'Fourth', body: 'Four.', to: 'attending' });
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toMatch(/3 messages in the last 24 hours/);
    await allDelivered(site.services);
    // Each message once per recipient, nothing from the refused one; a replay of the outbox sends nothing again.
    // A subject is one line: a line break in it never makes a header of its own.
    expect(subjects(a!.user.email)).toEqual([
      'What to bring · Tube swap',
      'Doors at six · Tube swap',
      'Third Bcc: x@example.org · Tube swap',
    ]);
    expect(smtp.to('x@example.org')).toEqual([]);
    expect(subjects(waiting!.user.email)).toHaveLength(1);
    await allDelivered(site.services);
    expect(subjects(b!.user.email)).toHaveLength(3);
  }, 60_000);

  it('is for the organizer and staff, with a subject and a body', async () => {
    const id = await approvedEvent({ title: 'Quiet one' });
    const guest = await registerMember(site.url);
    await guest.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    const message = { subject: 'Hi', body: 'Hello', to: 'attending' };
    expect((await cast.other.browser.post(`/api/events/${id}/message`, message)).status).toBe(403);
    expect((await cast.subscriber.browser.post(`/api/events/${id}/message`, message)).status).toBe(403);
    expect((await guest.browser.post(`/api/events/${id}/message`, message)).status).toBe(403);
    expect((await new Browser(site.url).post(`/api/events/${id}/message`, message)).status).toBe(401);
    expect((await cast.admin.browser.post(`/api/events/${UNKNOWN_ID}/message`, message)).status).toBe(404);
    const invalid = await cast.member.browser.post(`/api/events/${id}/message`, { subject: ' ', body: '', to: 'everyone' });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.fields).sort()).toEqual(['body', 'subject', 'to']);
    const nobody = await approvedEvent({ title: 'Nobody yet' });
    expect((await cast.member.browser.post(`/api/events/${nobody}/message`, message)).status).toBe(422);
  });
});

describe('a private event’s invite link', () => {
  it('lets a signed-in member who opens it see the event and RSVP; without it they cannot', async () => {
    const id = (await cast.admin.browser.post('/api/events', event({ title: 'Private gathering', isPublic: false }))).body.id as string;
    const guest = await registerMember(site.url);
    expect((await guest.browser.get(`/api/events/${id}`)).status).toBe(404);

    const link = await cast.admin.browser.get(`/api/events/${id}/invite-link`);
    expect(link.status).toBe(200);
    const url = new URL(link.body.url as string);
    expect(url.pathname).toBe(`/events/${id}`);
    const token = url.searchParams.get('invite')!;
    expect(token).toMatch(/^[\w-]{40,}$/u);
    // Stable: asked again, the same link.
    expect((await cast.staff.browser.get(`/api/events/${id}/invite-link`)).body.url).toBe(link.body.url);
    expect((await cast.other.browser.get(`/api/events/${id}/invite-link`)).status).toBe(404);
    expect((await new Browser(site.url).get(`/api/events/${id}/invite-link`)).status).toBe(401);
    const publicId = await approvedEvent({ title: 'Public one' });
    expect((await cast.member.browser.get(`/api/events/${publicId}/invite-link`)).status).toBe(422);

    // A wrong token, or another event's, opens nothing.
    expect((await guest.browser.post(`/api/events/${id}/invitation`, { token: `${token.slice(0, -2)}xx` })).status).toBe(404);
    expect((await guest.browser.post(`/api/events/${publicId}/invitation`, { token })).status).toBe(404);
    expect((await guest.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).status).toBe(404);
    expect((await new Browser(site.url).post(`/api/events/${id}/invitation`, { token })).status).toBe(401);

    const opened = await guest.browser.post(`/api/events/${id}/invitation`, { token });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ id, title: 'Private gathering', isPublic: false, myRsvp: null });
    expect((await guest.browser.get(`/api/events/${id}`)).status).toBe(200);
    expect((await guest.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).body.status).toBe('attending');
    expect(((await guest.browser.get('/api/user/events')).body.items as { id: string }[]).map((item) => item.id)).toContain(id);
    // Still private to everyone else.
    expect((await cast.other.browser.get(`/api/events/${id}`)).status).toBe(404);
    expect(((await cast.other.browser.get('/api/events')).body.items as { id: string }[]).map((item) => item.id)).not.toContain(id);
    expect((await new Browser(site.url).get(`/api/events/${id}`)).status).toBe(404);
  });
});
