/**
 * The private calendar feed: one URL per member, stable until reset, carrying exactly the events they attend,
 * organise or wait for; a reset URL answers 404 at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerCast } from '../../support/http';

let site: TestSite;
let admin: Browser;
let member: Browser;
let other: Browser;
const event = (title: string, overrides: Record<string, unknown> = {}) => ({
  title,
  startDate: '2030-03-01T18:00:00Z',
  endDate: '2030-03-01T21:00:00Z',
  ...overrides,
});
const create = async (browser: Browser, title: string, overrides: Record<string, unknown> = {}) => {
  const response = await browser.post('/api/events', event(title, overrides));
  expect(response.status).toBe(201);
  return response.body.id as string;
};
const summaries = (ics: string) =>
  new ICAL.Component(ICAL.parse(ics))
    .getAllSubcomponents('vevent')
    .map((vevent) => vevent.getFirstPropertyValue('summary'))
    .toSorted();

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_EVENT_MAX: '1000' });
  ({
    admin: { browser: admin },
    member: { browser: member },
    other: { browser: other },
  } = await registerCast(site.url));
});
afterAll(() => site?.close());

describe('the private calendar feed', () => {
  it('carries the events I attend, organise or wait for, and nothing else', async () => {
    const attending = await create(admin, 'Attending');
    const waiting = await create(admin, 'Waiting', { maxAttendees: 1 });
    const maybe = await create(admin, 'Maybe');
    await create(admin, 'Not answered');
    await create(member, 'My own proposal');
    expect((await member.put(`/api/events/${attending}/rsvp/me`, { status: 'attending' })).status).toBe(200);
    await other.put(`/api/events/${waiting}/rsvp/me`, { status: 'attending' });
    expect((await member.put(`/api/events/${waiting}/rsvp/me`, { status: 'attending' })).body).toMatchObject({ status: 'waitlisted' });
    await member.put(`/api/events/${maybe}/rsvp/me`, { status: 'maybe' });

    const first = await member.get('/api/me/calendar-url');
    expect(first.status).toBe(200);
    const url = first.body.url as string;
    expect(url).toMatch(new RegExp(`^${site.url}/api/calendar/[\\w-]{43}\\.ics$`, 'u'));
    expect((await member.get('/api/me/calendar-url')).body.url).toBe(url);
    expect((await other.get('/api/me/calendar-url')).body.url).not.toBe(url);

    const feed = await fetch(url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(feed.headers.get('cache-control')).toBe('private, no-store');
    const ics = await feed.text();
    expect(summaries(ics)).toEqual(['Attending', 'My own proposal', 'Waiting']);
    expect(new ICAL.Component(ICAL.parse(ics)).getFirstPropertyValue('x-wr-calname')).toBe('Broadcast History Community: my events');
  });

  it('makes a new URL on reset, and the old one answers 404 at once', async () => {
    const old = (await member.get('/api/me/calendar-url')).body.url as string;
    const reset = await member.post('/api/me/calendar-url/reset');
    expect(reset.status).toBe(200);
    expect(reset.body.url).not.toBe(old);
    expect((await fetch(old)).status).toBe(404);
    expect((await fetch(reset.body.url)).status).toBe(200);
    expect((await member.get('/api/me/calendar-url')).body.url).toBe(reset.body.url);
  });

  it('answers 401 to visitors and 404 to a made-up token', async () => {
    expect((await new Browser(site.url).get('/api/me/calendar-url')).status).toBe(401);
    expect((await new Browser(site.url).post('/api/me/calendar-url/reset')).status).toBe(401);
    expect((await fetch(`${site.url}/api/calendar/${'A'.repeat(43)}.ics`)).status).toBe(404);
    expect((await fetch(`${site.url}/api/calendar/not-a-token`)).status).toBe(404);
  });
});
