import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';

let site: TestSite;
let admin: Browser;
let member: Browser;
let other: Browser;
let subscriber: Browser;
const anonymous = () => new Browser(site.url);
const inDays = (days: number, hour = 18) => new Date(Date.UTC(2030, 0, 1 + days, hour)).toISOString();
const event = (overrides: Record<string, unknown> = {}) => ({ title: 'WGN reunion', eventType: 'reunion', location: 'Tribune Tower', startDate: inDays(10), endDate: inDays(10, 21), ...overrides });

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '10000' });
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  member = (await registerMember(site.url, { firstName: 'Mona', lastName: 'Member' })).browser;
  other = (await registerMember(site.url)).browser;
  const sub = await registerMember(site.url);
  subscriber = sub.browser;
  await admin.put(`/api/admin/users/${sub.user.id}/role`, { role: 'subscriber' });
});
afterAll(async () => {
  await site?.close();
});

describe('scheduling and approval', () => {
  let pendingId: string;

  it('approves staff events at once and queues members’ events', async () => {
    const staffEvent = await admin.post('/api/events', event({ title: 'Broadcast anniversary', isFeatured: true }));
    expect(staffEvent.status).toBe(201);
    expect(staffEvent.body).toMatchObject({ isApproved: true, attendeeCount: 0, myRsvp: null, organizer: { firstName: 'Ada', lastName: 'Admin' } });
    const memberEvent = await member.post('/api/events', event({ title: 'Engineers lunch' }));
    expect(memberEvent.body.isApproved).toBe(false);
    pendingId = memberEvent.body.id;
    expect((await subscriber.post('/api/events', event())).status).toBe(403);
    expect((await anonymous().post('/api/events', event())).status).toBe(401);
  });

  it('validates with the spec’s messages', async () => {
    const bad = await member.post('/api/events', { title: '', startDate: 'soon', endDate: inDays(1) });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ title: 'Event title is required', startDate: 'Invalid start date format' });
    const backwards = await member.post('/api/events', event({ endDate: inDays(9) }));
    expect(backwards.body.fields.endDate).toBe('End date must be after start date');
  });

  it('shows a pending event to its organizer and staff only, then to all once approved', async () => {
    expect((await other.get('/api/events')).body.map((e: { id: string }) => e.id)).not.toContain(pendingId);
    expect((await member.get('/api/events')).body.map((e: { id: string }) => e.id)).toContain(pendingId);
    expect((await admin.get('/api/admin/events/pending')).body.map((e: { id: string }) => e.id)).toEqual([pendingId]);
    expect((await admin.get('/api/admin/events/stats')).body).toEqual({ total: 2, pending: 1, approved: 1, featured: 0, public: 2, private: 0 });
    expect((await member.put(`/api/admin/events/${pendingId}/approve`)).status).toBe(403);
    expect((await admin.put(`/api/admin/events/${pendingId}/approve`)).body.isApproved).toBe(true);
    expect((await anonymous().get('/api/events')).body.map((e: { id: string }) => e.id)).toContain(pendingId);
    expect(JSON.stringify((await anonymous().get('/api/events')).body)).not.toMatch(/@example\.org/);
  });

  it('features by toggle or explicitly, and filters the list', async () => {
    expect((await admin.put(`/api/admin/events/${pendingId}/feature`)).body.isFeatured).toBe(true);
    expect((await admin.put(`/api/admin/events/${pendingId}/feature`, { featured: true })).body.isFeatured).toBe(true);
    expect((await anonymous().get('/api/events?featured=true')).body.map((e: { id: string }) => e.id)).toEqual([pendingId]);
    expect((await admin.get('/api/admin/events/featured')).body).toHaveLength(1);
    expect((await member.get('/api/events?q=LUNCH')).body.map((e: { title: string }) => e.title)).toEqual(['Engineers lunch']);
    expect((await member.get('/api/events?type=reunion')).body).toHaveLength(2);
    expect((await member.get(`/api/events?from=${inDays(11)}`)).body).toHaveLength(0);
  });

  it('lets the organizer edit and staff delete', async () => {
    expect((await other.put(`/api/events/${pendingId}`, event({ title: 'Hijacked' }))).status).toBe(403);
    expect((await member.put(`/api/events/${pendingId}`, event({ title: 'Engineers lunch, 2nd edition' }))).body.title).toBe('Engineers lunch, 2nd edition');
    const doomed = (await admin.post('/api/events', event({ title: 'Cancelled' }))).body.id;
    expect((await member.delete(`/api/events/${doomed}`)).status).toBe(403);
    expect((await admin.delete(`/api/events/${doomed}`)).status).toBe(204);
    expect((await admin.get(`/api/events/${doomed}`)).status).toBe(404);
  });
});

describe('RSVP', () => {
  it('records attending, maybe, not attending and removal, with counts', async () => {
    const id = (await admin.post('/api/events', event({ title: 'Open house' }))).body.id;
    expect((await member.put(`/api/events/${id}/rsvp/me`, { status: 'maybe' })).body).toMatchObject({ status: 'maybe', maybe: 1 });
    expect((await member.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).body).toMatchObject({ status: 'attending', attending: 1, maybe: 0 });
    expect((await member.get(`/api/events/${id}/rsvp/me`)).body).toEqual({ status: 'attending' });
    await other.put(`/api/events/${id}/rsvp/me`, { status: 'not_attending' });
    expect((await anonymous().get(`/api/events/${id}/attendees-count`)).body).toEqual({ attending: 1, maybe: 0, notAttending: 1 });
    expect((await member.delete(`/api/events/${id}/rsvp/me`)).body).toMatchObject({ status: null, attending: 0 });
    expect((await member.get('/api/user/events')).body.map((e: { id: string }) => e.id)).not.toContain(id);
    await member.put(`/api/events/${id}/rsvp/me`, { status: 'maybe' });
    expect((await member.get('/api/user/events')).body.map((e: { id: string }) => e.id)).toContain(id);
    expect((await member.put(`/api/events/${id}/rsvp/me`, { status: 'going' })).status).toBe(400);
  });

  it('refuses past, unapproved and private events and subscribers', async () => {
    const past = (await admin.post('/api/events', event({ title: 'Long ago', startDate: '2001-01-01T10:00:00Z', endDate: '2001-01-01T11:00:00Z' }))).body.id;
    const response = await member.put(`/api/events/${past}/rsvp/me`, { status: 'attending' });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('RSVP is no longer available for past events');
    const unapproved = (await member.post('/api/events', event({ title: 'Not yet' }))).body.id;
    expect((await member.put(`/api/events/${unapproved}/rsvp/me`, { status: 'attending' })).status).toBe(422);
    const open = (await admin.post('/api/events', event({ title: 'For all' }))).body.id;
    expect((await subscriber.put(`/api/events/${open}/rsvp/me`, { status: 'attending' })).status).toBe(403);
    const secret = (await admin.post('/api/events', event({ title: 'Staff only', isPublic: false }))).body.id;
    expect((await member.put(`/api/events/${secret}/rsvp/me`, { status: 'attending' })).status).toBe(404);
  });

  it('seats exactly max attendees when 200 members RSVP at once', async () => {
    const members: Browser[] = [];
    for (let batch = 0; batch < 10; batch++) members.push(...(await Promise.all(Array.from({ length: 20 }, () => registerMember(site.url).then((m) => m.browser)))));
    for (let round = 0; round < 3; round++) {
      const id = (await admin.post('/api/events', event({ title: `Hot event ${round}`, maxAttendees: 10 }))).body.id;
      const statuses = await Promise.all(members.map((browser) => browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' }).then((r) => r.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 409)).toHaveLength(190);
      expect((await anonymous().get(`/api/events/${id}/attendees-count`)).body.attending).toBe(10);
      const refused = await members.find((_b, i) => statuses[i] === 409)!.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
      expect(refused.body.message).toBe('Event is at capacity');
    }
  }, 120_000);
});

describe('calendar export', () => {
  it('downloads an event as a parseable iCalendar file with the spec’s file name', async () => {
    const id = (await admin.post('/api/events', event({ title: 'Réunion: WGN à 75 ans ☕', description: 'Photos, stories; memories' }))).body.id;
    const response = await anonymous().get(`/api/events/${id}/ics`);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('Réunion_WGN_à_75_ans__2030-01-11.ics')}`);
    const vevent = new ICAL.Event(new ICAL.Component(ICAL.parse(response.body)).getFirstSubcomponent('vevent')!);
    expect(vevent.summary).toBe('Réunion: WGN à 75 ans ☕');
    expect(vevent.description).toContain('Event Type: Reunion');
  });

  it('serves a subscribable feed of public approved events only', async () => {
    const feed = await anonymous().get('/api/calendar.ics');
    const titles = new ICAL.Component(ICAL.parse(feed.body)).getAllSubcomponents('vevent').map((c) => c.getFirstPropertyValue('summary'));
    expect(titles).toContain('Broadcast anniversary');
    expect(titles).not.toContain('Staff only');
    expect(titles).not.toContain('Not yet');
  });
});
