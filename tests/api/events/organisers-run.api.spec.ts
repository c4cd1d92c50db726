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
