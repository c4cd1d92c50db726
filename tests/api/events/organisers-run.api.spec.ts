/**
 * What organisers run, through the whole site (docs/domain/events.md#organisers): the site's time zone, set by admins
 * and named on every time in mail and link previews; a member organiser's edit of an approved event held as a
 * revision while attendees keep the approved event, mailed once staff approve it; a cancelled event marked so in
 * lists, the widget's read, the calendar feeds and previews; an address and coordinates in the .ics and JSON-LD; and a
 * private event's invite link reset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerCast, registerMember } from '../../support/http';
import { allDelivered, startCountingSmtp, type CountingSmtp } from '../subscriptions/delivery-fixtures';

let smtp: CountingSmtp;
let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;
const visitor = () => new Browser(site.url);

beforeAll(async () => {
  smtp = await startCountingSmtp();
  site = await startTestSite({
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    TIME_ZONE: 'America/Chicago',
    RATE_LIMIT_EVENT_MAX: '1000',
    RATE_LIMIT_AUTH_MAX: '1000',
  });
  cast = await registerCast(site.url);
}, 60_000);
afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

const event = (overrides: Record<string, unknown> = {}) => ({
  title: 'Transmitter open day',
  location: 'Tower site',
  // 7:00 PM in Chicago (CST), 8:00 PM in New York.
  startDate: '2031-01-10T01:00:00Z',
  endDate: '2031-01-10T03:00:00Z',
  ...overrides,
});
/** A member's event, approved by staff. */
async function approvedEvent(overrides: Record<string, unknown> = {}) {
  const created = await cast.member.browser.post('/api/events', event(overrides));
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  expect((await cast.staff.browser.put(`/api/admin/events/${id}/approve`)).status).toBe(200);
  return id;
}
const subjects = (address: string) => smtp.to(address).map((mail) => mail.subject);
const metaContent = (html: string, key: string) =>
  html
    .match(new RegExp(`<meta property="${key}" content="([^"]*)"`, 'u'))?.[1]
    ?.replace(/&(amp|quot|#39|lt|gt);/gu, (_, name: string) => ({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>' })[name]!);
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/gu)].map((match) => JSON.parse(match[1]!));

describe('the site’s time zone', () => {
  it('is the configured one until an admin sets another; only a real IANA zone, only by admins', async () => {
    expect((await visitor().get('/api/site')).body).toEqual({
      name: 'Broadcast History Community',
      description: expect.any(String),
      timeZone: 'America/Chicago',
    });
    expect((await cast.staff.browser.patch('/api/admin/site', { timeZone: 'America/New_York' })).status).toBe(403);
    const wrong = await cast.admin.browser.patch('/api/admin/site', { timeZone: 'Mars/Olympus_Mons' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields.timeZone).toMatch(/IANA time zone/);
    const set = await cast.admin.browser.patch('/api/admin/site', { timeZone: 'pacific/auckland' });
    expect(set.status).toBe(200);
    expect(set.body.timeZone).toBe('Pacific/Auckland');
    expect((await visitor().get('/api/site')).body.timeZone).toBe('Pacific/Auckland');
    // The calendar's day lists follow it: 01:00 UTC on the 10th is the 9th in Chicago, the 10th in Auckland.
    const id = (await cast.admin.browser.post('/api/events', event({ title: 'Zone day' }))).body.id as string;
    const day = async (date: string) => (await visitor().get(`/api/events?day=${date}`)).body.items.map((item: { id: string }) => item.id);
    expect(await day('2031-01-10')).toContain(id);
    expect(await day('2031-01-09')).not.toContain(id);
    expect((await cast.admin.browser.patch('/api/admin/site', { timeZone: 'America/Chicago' })).body.timeZone).toBe('America/Chicago');
    expect(await day('2031-01-09')).toContain(id);
  });

  it('names the zone in the mail attendees get and in the link preview', async () => {
    const id = (await cast.admin.browser.post('/api/events', event({ title: 'Zone named', maxAttendees: 1 }))).body.id as string;
    const guest = await registerMember(site.url);
    const waiting = await registerMember(site.url);
    await guest.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    await waiting.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    await guest.browser.delete(`/api/events/${id}/rsvp/me`);
    await allDelivered(site.services);
    expect(smtp.to(waiting.user.email)[0]!.text).toContain('Thursday, January 9, 2031 · 7:00 PM – 9:00 PM CST');

    const html = String((await visitor().get(`/events/${id}`)).body);
    expect(metaContent(html, 'og:description')).toContain('7:00 PM – 9:00 PM CST');
    expect(html).toContain('7:00 PM – 9:00 PM CST');
  });
});

describe('a member organiser’s edit of an approved event', () => {
  it('waits for staff while everyone keeps the approved event; attendees are mailed only once staff approve it', async () => {
    const id = await approvedEvent({ title: 'Held edit' });
    const guest = await registerMember(site.url);
    await guest.browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    const moved = event({ title: 'Held edit, moved', startDate: '2031-01-11T01:00:00Z', endDate: '2031-01-11T03:00:00Z' });
    const edited = await cast.member.browser.put(`/api/events/${id}`, moved);
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Held edit', status: 'approved', isApproved: true, pendingRevision: true });
    expect(edited.body.revision).toMatchObject({ title: 'Held edit, moved', startDate: '2031-01-11T01:00:00.000Z' });

    // The attendee, a visitor and the calendar feed see the approved event, and nothing of the edit.
    const seen = (await guest.browser.get(`/api/events/${id}`)).body;
    expect(seen).toMatchObject({ title: 'Held edit', startDate: '2031-01-10T01:00:00.000Z' });
    expect(seen.pendingRevision).toBeUndefined();
    expect(seen.revision).toBeUndefined();
    expect((await visitor().get(`/api/events/${id}`)).status).toBe(200);
    expect(String((await visitor().get('/api/calendar.ics')).body)).toContain('SUMMARY:Held edit\r\n');
    expect((await cast.staff.browser.get(`/api/events/${id}`)).body.revision.title).toBe('Held edit, moved');
    const queue = (await cast.staff.browser.get('/api/admin/events/pending')).body.items;
    expect(queue.find((item: { id: string }) => item.id === id)).toMatchObject({ pendingRevision: true, status: 'approved' });
    await allDelivered(site.services);
    expect(subjects(guest.user.email)).toEqual([]);

    const approved = await cast.staff.browser.put(`/api/admin/events/${id}/approve`);
    expect(approved.body).toMatchObject({ title: 'Held edit, moved', startDate: '2031-01-11T01:00:00.000Z' });
    expect(approved.body.pendingRevision).toBeUndefined();
    expect((await guest.browser.get(`/api/events/${id}`)).body.title).toBe('Held edit, moved');
    await allDelivered(site.services);
    expect(subjects(guest.user.email)).toEqual(['Changed: Held edit, moved']);
    expect(smtp.to(guest.user.email)[0]!.text).toContain('Friday, January 10, 2031 · 7:00 PM – 9:00 PM CST');
    expect((await cast.staff.browser.get('/api/admin/events/pending')).body.items.map((item: { id: string }) => item.id)).not.toContain(id);
  });

  it('is rejected alone: the approved event stays; staff edits apply at once', async () => {
    const id = await approvedEvent({ title: 'Kept as approved' });
    await cast.member.browser.put(`/api/events/${id}`, event({ title: 'Not this' }));
    const rejected = await cast.staff.browser.put(`/api/admin/events/${id}/reject`, { reason: 'Keep the old title' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ title: 'Kept as approved', status: 'approved' });
    expect(rejected.body.pendingRevision).toBeUndefined();
    // Its organiser is told, with the reason.
    await expect
      .poll(async () => (await cast.member.browser.get('/api/notifications')).body.items.map((item: { text: string }) => item.text))
      .toContainEqual(expect.stringMatching(/^Your edit of .Kept as approved. was not approved: Keep the old title$/u));
    // With no edit waiting, an approved event is still cancelled, never rejected.
    expect((await cast.staff.browser.put(`/api/admin/events/${id}/reject`)).body.error).toBe('USE_CANCEL');
    const staffEdit = await cast.staff.browser.put(`/api/events/${id}`, event({ title: 'Staff say so' }));
    expect(staffEdit.body).toMatchObject({ title: 'Staff say so', status: 'approved' });
  });
});

describe('a private event’s invite link', () => {
  it('is reset by its organiser or staff: the old link stops working, the new one lets a member in', async () => {
    const id = await approvedEvent({ title: 'Invitation only', isPublic: false });
    const first = (await cast.member.browser.get(`/api/events/${id}/invite-link`)).body.url as string;
    const stranger = await registerMember(site.url);
    expect((await stranger.browser.post(`/api/events/${id}/invite-link/reset`)).status).toBe(404);
    const reset = await cast.member.browser.post(`/api/events/${id}/invite-link/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body.url).not.toBe(first);
    expect((await cast.staff.browser.get(`/api/events/${id}/invite-link`)).body.url).toBe(reset.body.url);
    const token = (url: string) => new URL(url).searchParams.get('invite');
    expect((await stranger.browser.post(`/api/events/${id}/invitation`, { token: token(first) })).status).toBe(404);
    expect((await stranger.browser.post(`/api/events/${id}/invitation`, { token: token(reset.body.url) })).status).toBe(200);
    const publicOne = await approvedEvent({ title: 'Open to all' });
    expect((await cast.member.browser.post(`/api/events/${publicOne}/invite-link/reset`)).status).toBe(422);
  });
});

describe('a place with an address and coordinates', () => {
  it('is carried by the calendar file (LOCATION and GEO), the page’s map link and its JSON-LD Place', async () => {
    const address = { street: '625 S 4th St', city: 'Louisville', region: 'KY', postalCode: '40202', country: 'United States' };
    const created = await cast.admin.browser.post(
      '/api/events',
      event({ title: 'At the Palace', location: 'Louisville Palace', address, geo: { lat: 38.2499, lon: -85.7598 } }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ address, geo: { lat: 38.2499, lon: -85.7598 } });
    const id = created.body.id as string;
    const ics = String((await visitor().get(`/api/events/${id}/ics`)).body).replace(/\r\n /g, '');
    expect(ics).toContain('LOCATION:Louisville Palace\\, 625 S 4th St\\, Louisville\\, KY 40202\\, United States\r\n');
    expect(ics).toContain('GEO:38.2499;-85.7598\r\n');

    const html = String((await visitor().get(`/events/${id}`)).body);
    expect(html).toContain('href="https://www.openstreetmap.org/?mlat=38.2499&amp;mlon=-85.7598#map=17/38.2499/-85.7598"');
    const data = jsonLd(html).find((item) => item['@type'] === 'Event');
    expect(data.location[0]).toEqual({
      '@type': 'Place',
      name: 'Louisville Palace',
      address: {
        '@type': 'PostalAddress',
        streetAddress: '625 S 4th St',
        addressLocality: 'Louisville',
        addressRegion: 'KY',
        postalCode: '40202',
        addressCountry: 'United States',
      },
      geo: { '@type': 'GeoCoordinates', latitude: 38.2499, longitude: -85.7598 },
    });

    const refused = await cast.admin.browser.post('/api/events', event({ geo: { lat: 91, lon: 0 } }));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.fields)).toMatch(/Latitude must be between -90 and 90/);
    // An address of empty parts is none.
    const empty = await cast.admin.browser.post('/api/events', event({ address: { street: ' ', city: '' } }));
    expect(empty.body.address).toBeNull();
  });
});

describe('a cancelled event', () => {
  it('says so in every list, the day list, the widget’s read, the calendar feed and the link preview; it is never featured', async () => {
    const id = (await cast.admin.browser.post('/api/events', event({ title: 'Called off' }))).body.id as string;
    await cast.admin.browser.put(`/api/admin/events/${id}/feature`, { featured: true });
    expect((await cast.admin.browser.post(`/api/events/${id}/cancel`)).body).toMatchObject({ isCancelled: true, isFeatured: false });
    const listed = (path: string) =>
      visitor()
        .get(path)
        .then((response) => response.body.items.find((item: { id: string }) => item.id === id));
    expect(await listed('/api/events?from=2031-01-01T00:00:00Z&to=2031-02-01T00:00:00Z')).toMatchObject({ isCancelled: true });
    expect(await listed('/api/events?day=2031-01-09')).toMatchObject({ isCancelled: true });
    // The events widget reads the upcoming public events by this call.
    expect(await listed('/api/events?limit=50')).toMatchObject({ isCancelled: true });
    expect(await listed('/api/events?featured=true')).toBeUndefined();
    expect((await cast.admin.browser.put(`/api/admin/events/${id}/feature`, { featured: true })).status).toBe(422);

    const feed = String((await visitor().get('/api/calendar.ics')).body);
    const vevent = feed.slice(feed.indexOf(`UID:${id}`), feed.indexOf('END:VEVENT', feed.indexOf(`UID:${id}`)));
    expect(vevent).toContain('STATUS:CANCELLED');
    const html = String((await visitor().get(`/events/${id}`)).body);
    expect(metaContent(html, 'og:title')).toBe('Cancelled: Called off | Broadcast History Community');
    expect(metaContent(html, 'og:description')).toMatch(/^Cancelled · /);
    expect(html).toContain('This event was cancelled. It takes no more RSVPs.');
  });
});
