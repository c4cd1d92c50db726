/**
 * Every event call of the OpenAPI document for every role, with their errors; the
 * list filters; the capacity rule under 200 simultaneous RSVPs; the .ics file and
 * feed; the change notices each write pushes to the right rooms; and read models
 * that a replay rebuilds identically.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import type { Socket } from 'socket.io-client';
import { connectSocket } from '../../support/sockets';
import { readModelsApart, RSVP_RUSH_LIMITS, startTestSite, type TestSite } from '../../support/site';
import { createEvent } from '../../support/content';
import { Browser, registerCast, registerMember } from '../../support/http';
import { allProjections } from '../../../projections/index';
import { EVENT_CALENDAR, EVENT_DETAILS } from '../../../projections/events/events';
import { MEMBER_EVENTS } from '../../../projections/events/member-events';
import { EVENT_STATS } from '../../../projections/events/event-stats';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

let site: TestSite;
let admin: Browser;
let staff: Browser;
let member: Browser;
let memberId: string;
let other: Browser;
let subscriber: Browser;
const anonymous = () => new Browser(site.url);
const sockets: Socket[] = [];
const inDays = (days: number, hour = 18) => new Date(Date.UTC(2030, 0, 1 + days, hour)).toISOString();
const event = (overrides: Record<string, unknown> = {}) => ({
  title: 'WGN reunion',
  eventType: 'reunion',
  location: 'Tribune Tower',
  startDate: inDays(10),
  endDate: inDays(10, 21),
  ...overrides,
});
const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((e) => e.id);
const titles = (response: { body: { items: { title: string }[] } }) => response.body.items.map((e) => e.title);
const create = (browser: Browser, overrides: Record<string, unknown> = {}) => createEvent(browser, event(overrides));

beforeAll(async () => {
  site = await startTestSite(RSVP_RUSH_LIMITS);
  const cast = await registerCast(site.url);
  admin = cast.admin.browser;
  staff = cast.staff.browser;
  member = cast.member.browser;
  memberId = cast.member.user.id;
  other = cast.other.browser;
  subscriber = cast.subscriber.browser;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await site?.close();
});

/** A socket as `browser` (anonymous when absent), recording the notices of events as `message kind/counts id`. */
async function listen(browser?: Browser) {
  const received: { text: string; at: number }[] = [];
  const record = (text: string) => received.push({ text, at: Date.now() });
  await connectSocket(site.url, sockets, browser, (socket) => {
    socket.on('events:changed', (p: { id: string; kind: string }) => record(`events:changed ${p.kind} ${p.id}`));
    socket.on('rsvp:changed', (p: { eventId: string; attending: number; maybe: number; notAttending: number }) =>
      record(`rsvp:changed ${p.attending}/${p.maybe}/${p.notAttending} ${p.eventId}`),
    );
    // The events' count; '-' for another feature's (the feed's, the reports').
    socket.on('pending:changed', (p: { events?: number }) => record(`pending:changed ${p.events ?? '-'}`));
  });
  return { texts: () => received.map((r) => r.text), received };
}

describe('scheduling and approval', () => {
  let pendingId: string;

  it('approves staff events at once and queues members’ events', async () => {
    const staffEvent = await admin.post('/api/events', event({ title: 'Broadcast anniversary' }));
    expect(staffEvent.status).toBe(201);
    expect(staffEvent.body).toMatchObject({
      isApproved: true,
      status: 'approved',
      isFeatured: false,
      attendeeCount: 0,
      attendees: { attending: 0, maybe: 0, notAttending: 0 },
      myRsvp: null,
      organizer: { firstName: 'Ada', lastName: 'Admin', role: 'admin' },
    });
    expect(staffEvent.body).not.toHaveProperty('rsvps');
    expect(staffEvent.body).not.toHaveProperty('_position');
    const memberEvent = await member.post(
      '/api/events',
      event({ title: 'Engineers lunch', maxAttendees: '12', tags: [' lunch ', 'lunch', 'engineers'] }),
    );
    expect(memberEvent.body).toMatchObject({
      isApproved: false,
      status: 'pending',
      maxAttendees: 12,
      tags: ['lunch', 'engineers'],
      eventType: 'reunion',
      isPublic: true,
      isVirtual: false,
      allDay: false,
    });
    pendingId = memberEvent.body.id;
    expect((await subscriber.post('/api/events', event())).status).toBe(403);
    expect((await anonymous().post('/api/events', event())).status).toBe(401);
  });

  it('validates with the spec’s messages', async () => {
    const bad = await member.post('/api/events', { title: '', startDate: 'soon', endDate: inDays(1) });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ title: 'Event title is required', startDate: 'Invalid start date format' });
    expect((await member.post('/api/events', {})).body.fields).toMatchObject({
      title: 'Event title is required',
      startDate: 'Start date is required',
      endDate: 'End date is required',
    });
    expect((await member.post('/api/events', event({ endDate: inDays(9) }))).body.fields.endDate).toBe('End date must be after start date');
    expect((await member.post('/api/events', event({ title: 'x'.repeat(256) }))).body.fields.title).toBe(
      'Title must be less than 255 characters',
    );
    expect((await member.post('/api/events', event({ maxAttendees: 0 }))).body.fields.maxAttendees).toBe(
      'Max attendees must be at least 1',
    );
    expect((await member.post('/api/events', event({ eventType: 'party' }))).status).toBe(400);
  });

  it('shows a pending event to its organizer and staff only, then to all once approved', async () => {
    expect(ids(await other.get('/api/events'))).not.toContain(pendingId);
    expect((await other.get(`/api/events/${pendingId}`)).status).toBe(404);
    expect((await anonymous().get(`/api/events/${pendingId}/ics`)).status).toBe(404);
    expect(ids(await member.get('/api/events'))).toContain(pendingId);
    expect(ids(await staff.get('/api/events'))).toContain(pendingId);
    expect(ids(await admin.get('/api/admin/events/pending'))).toEqual([pendingId]);
    expect((await admin.get('/api/admin/events/stats')).body).toEqual({
      total: 2,
      pending: 1,
      approved: 1,
      featured: 0,
      public: 2,
      private: 0,
    });
    expect((await member.put(`/api/admin/events/${pendingId}/approve`)).status).toBe(403);
    const approved = await staff.put(`/api/admin/events/${pendingId}/approve`);
    expect(approved.body).toMatchObject({ isApproved: true, status: 'approved' });
    expect(ids(await anonymous().get('/api/events'))).toContain(pendingId);
    expect((await admin.get('/api/admin/events/pending')).body).toEqual({ items: [], nextCursor: null });
    expect((await admin.get('/api/admin/events/stats')).body).toMatchObject({ pending: 0, approved: 2 });
  });

  it('shows organizer e-mails to staff only', async () => {
    expect((await admin.get(`/api/events/${pendingId}`)).body.organizer.email).toMatch(/@example\.org$/);
    expect((await other.get(`/api/events/${pendingId}`)).body.organizer).not.toHaveProperty('email');
    expect(JSON.stringify((await anonymous().get('/api/events')).body)).not.toMatch(/@/);
    expect(JSON.stringify((await member.get('/api/events')).body)).not.toMatch(/@/);
  });

  it('features by toggle or explicitly', async () => {
    expect((await admin.put(`/api/admin/events/${pendingId}/feature`)).body.isFeatured).toBe(true);
    expect((await admin.put(`/api/admin/events/${pendingId}/feature`, { featured: true })).body.isFeatured).toBe(true);
    expect(ids(await anonymous().get('/api/events?featured=true'))).toEqual([pendingId]);
    expect(ids(await admin.get('/api/admin/events/featured'))).toEqual([pendingId]);
    expect((await staff.put(`/api/admin/events/${pendingId}/feature`)).body.isFeatured).toBe(false);
    expect((await staff.put(`/api/admin/events/${pendingId}/feature`, { featured: false })).body.isFeatured).toBe(false);
    expect((await admin.get('/api/admin/events/featured')).body).toEqual({ items: [], nextCursor: null });
    expect((await staff.put(`/api/admin/events/${pendingId}/feature`, { featured: 'yes' })).status).toBe(400);
    await staff.put(`/api/admin/events/${pendingId}/feature`, { featured: true });
    expect((await admin.get('/api/admin/events/stats')).body.featured).toBe(1);
  });

  it('rejects: the event leaves every list but the organizer’s and staff’s direct view', async () => {
    const doubtful = await create(member, { title: 'Doubtful gathering' });
    expect((await staff.put(`/api/admin/events/${doubtful}/reject`)).body).toMatchObject({ status: 'rejected', isApproved: false });
    expect(ids(await staff.get('/api/events'))).not.toContain(doubtful);
    expect(ids(await staff.get('/api/events?status=any'))).toContain(doubtful);
    expect(ids(await staff.get('/api/events?status=rejected'))).toEqual([doubtful]);
    expect((await member.get(`/api/events/${doubtful}`)).body.status).toBe('rejected');
    expect((await other.get(`/api/events/${doubtful}`)).status).toBe(404);
    expect((await member.put(`/api/events/${doubtful}/rsvp/me`, { status: 'maybe' })).status).toBe(422);
  });

  it('lets the organizer and staff edit, nobody else; staff delete', async () => {
    expect((await other.put(`/api/events/${pendingId}`, event({ title: 'Hijacked' }))).status).toBe(403);
    expect((await subscriber.put(`/api/events/${pendingId}`, event({ title: 'Hijacked' }))).status).toBe(403);
    expect((await anonymous().put(`/api/events/${pendingId}`, event({ title: 'Hijacked' }))).status).toBe(401);
    // Approved by now: the organiser's edit waits for staff as a revision.
    expect((await member.put(`/api/events/${pendingId}`, event({ title: 'Engineers lunch, 2nd edition' }))).body.revision.title).toBe(
      'Engineers lunch, 2nd edition',
    );
    expect((await staff.put(`/api/events/${pendingId}`, event({ title: 'Engineers lunch' }))).body).toMatchObject({
      title: 'Engineers lunch',
      organizer: { firstName: 'Mona' },
    });
    expect((await member.put(`/api/events/${pendingId}`, { title: '' })).body.fields.title).toBe('Event title is required');
    const doomed = await create(admin, { title: 'Cancelled' });
    await member.put(`/api/events/${doomed}/rsvp/me`, { status: 'maybe' });
    expect((await member.delete(`/api/events/${doomed}`)).status).toBe(403);
    expect((await anonymous().delete(`/api/events/${doomed}`)).status).toBe(401);
    expect((await staff.delete(`/api/events/${doomed}`)).status).toBe(204);
    expect((await admin.get(`/api/events/${doomed}`)).status).toBe(404);
    expect((await admin.delete(`/api/events/${doomed}`)).status).toBe(404);
    expect(ids(await member.get('/api/user/events'))).not.toContain(doomed);
  });

  it('holds a member’s edit of an approved event for staff while guests keep the approved one; staff edits apply at once', async () => {
    const id = await create(member, { title: 'Transmitter tour' });
    await staff.put(`/api/admin/events/${id}/approve`);
    const pendingBefore = (await staff.get('/api/admin/events/stats')).body.pending as number;
    const edited = await member.put(
      `/api/events/${id}`,
      event({ title: 'Transmitter tour', description: 'Now with a new description nobody reviewed' }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ isApproved: true, status: 'approved', description: '', pendingRevision: true });
    expect(edited.body.revision.description).toBe('Now with a new description nobody reviewed');
    expect((await anonymous().get(`/api/events/${id}`)).body.description).toBe('');
    expect((await other.get(`/api/events/${id}`)).body.description).toBe('');
    expect((await staff.get('/api/admin/events/stats')).body.pending).toBe(pendingBefore + 1);
    expect((await staff.put(`/api/admin/events/${id}/approve`)).body.isApproved).toBe(true);
    expect((await staff.get('/api/admin/events/stats')).body.pending).toBe(pendingBefore);
    expect((await anonymous().get(`/api/events/${id}`)).body.description).toBe('Now with a new description nobody reviewed');
    const byStaff = await staff.put(`/api/events/${id}`, event({ title: 'Transmitter tour, corrected by staff' }));
    expect(byStaff.body).toMatchObject({ isApproved: true, status: 'approved' });
    expect((await anonymous().get(`/api/events/${id}`)).body.title).toBe('Transmitter tour, corrected by staff');
  });

  it('shows the organizer as they are now', async () => {
    const promoted = await registerMember(site.url, { firstName: 'Pat', lastName: 'Promoted' });
    const id = await create(promoted.browser, { title: 'Pat’s tour' });
    await admin.put(`/api/admin/users/${promoted.user.id}/role`, { role: 'staff' });
    expect((await admin.get(`/api/events/${id}`)).body.organizer.role).toBe('staff');
    expect((await admin.get('/api/events?q=pat’s')).body.items[0].organizer.role).toBe('staff');
  });
});

describe('lists', () => {
  it('filters by range, search, type, featured; sorts; limits', async () => {
    const march = await create(admin, {
      title: 'Spring radio fair',
      description: 'Crystal sets',
      location: 'Union Hall',
      eventType: 'conference',
      startDate: '2031-03-10T17:00:00Z',
      endDate: '2031-03-10T20:00:00Z',
    });
    await create(admin, {
      title: 'April signal day',
      eventType: 'celebration',
      startDate: '2031-04-01T00:00:00Z',
      endDate: '2031-04-01T05:00:00Z',
    });
    const month = await anonymous().get('/api/events?from=2031-03-01T00:00:00Z&to=2031-04-01T00:00:00Z');
    expect(ids(month)).toEqual([march]);
    expect(ids(await member.get('/api/events?q=CRYSTAL'))).toEqual([march]);
    expect(ids(await member.get('/api/events?q=union hall'))).toEqual([march]);
    expect(ids(await member.get('/api/events?q=.*'))).toEqual([]);
    expect(ids(await member.get('/api/events?type=conference'))).toEqual([march]);
    expect(titles(await member.get('/api/events?from=2031-01-01T00:00:00Z'))).toEqual(['Spring radio fair', 'April signal day']);
    expect(titles(await member.get('/api/events?from=2031-01-01T00:00:00Z&sort=title'))).toEqual(['April signal day', 'Spring radio fair']);
    expect(titles(await member.get('/api/events?from=2031-01-01T00:00:00Z&sort=created'))).toEqual([
      'April signal day',
      'Spring radio fair',
    ]);
    expect((await member.get('/api/events?limit=1')).body.items).toHaveLength(1);
    for (const query of ['limit=0', 'limit=101', 'limit=ten', 'type=party', 'from=someday', 'featured=yes', 'sort=random', 'status=lost'])
      expect((await member.get(`/api/events?${query}`)).status, query).toBe(400);
  });

  it('hides private events from everyone but their organizer and staff', async () => {
    const secret = await create(admin, { title: 'Board meeting', isPublic: false });
    const own = await create(member, { title: 'My private tea', isPublic: false });
    await staff.put(`/api/admin/events/${own}/approve`);
    expect(ids(await member.get('/api/events'))).not.toContain(secret);
    expect(ids(await member.get('/api/events'))).toContain(own);
    expect(ids(await other.get('/api/events'))).not.toContain(own);
    expect(ids(await staff.get('/api/events'))).toEqual(expect.arrayContaining([secret, own]));
    expect((await member.get(`/api/events/${secret}`)).status).toBe(404);
    expect((await member.put(`/api/events/${secret}/rsvp/me`, { status: 'attending' })).status).toBe(404);
    expect((await member.put(`/api/events/${own}/rsvp/me`, { status: 'attending' })).status).toBe(200);
    expect((await admin.get('/api/admin/events/stats')).body.private).toBe(2);
  });

  it('lists my events: organised or answered, with my RSVP', async () => {
    const mine = await member.get('/api/user/events');
    expect(mine.status).toBe(200);
    expect(
      mine.body.items.every(
        (e: { organizer: { firstName: string }; myRsvp: string | null }) => e.organizer.firstName === 'Mona' || e.myRsvp !== null,
      ),
    ).toBe(true);
    expect(mine.body.items.find((e: { title: string }) => e.title === 'My private tea').myRsvp).toBe('attending');
    expect((await anonymous().get('/api/user/events')).status).toBe(401);
    expect((await subscriber.get('/api/user/events')).body).toEqual({ items: [], nextCursor: null });
  });
});

describe('RSVP', () => {
  it('records attending, maybe, not attending and removal, with counts', async () => {
    const id = await create(admin, { title: 'Open house' });
    expect((await member.put(`/api/events/${id}/rsvp/me`, { status: 'maybe' })).body).toEqual({
      status: 'maybe',
      attending: 0,
      maybe: 1,
      notAttending: 0,
      waitlistCount: 0,
    });
    expect((await member.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).body).toEqual({
      status: 'attending',
      attending: 1,
      maybe: 0,
      notAttending: 0,
      waitlistCount: 0,
    });
    expect((await member.get(`/api/events/${id}/rsvp/me`)).body).toEqual({ status: 'attending' });
    expect((await member.get(`/api/events/${id}`)).body).toMatchObject({ myRsvp: 'attending', attendeeCount: 1 });
    expect((await anonymous().get(`/api/events/${id}`)).body).not.toHaveProperty('myRsvp');
    await other.put(`/api/events/${id}/rsvp/me`, { status: 'not_attending' });
    expect((await anonymous().get(`/api/events/${id}/attendees-count`)).body).toEqual({ attending: 1, maybe: 0, notAttending: 1 });
    expect((await member.delete(`/api/events/${id}/rsvp/me`)).body).toEqual({
      status: null,
      attending: 0,
      maybe: 0,
      notAttending: 1,
      waitlistCount: 0,
    });
    expect((await member.get(`/api/events/${id}/rsvp/me`)).body).toEqual({ status: null });
    expect((await member.delete(`/api/events/${id}/rsvp/me`)).status).toBe(200);
    expect(ids(await member.get('/api/user/events'))).not.toContain(id);
    await member.put(`/api/events/${id}/rsvp/me`, { status: 'maybe' });
    expect(ids(await member.get('/api/user/events'))).toContain(id);
    expect((await member.put(`/api/events/${id}/rsvp/me`, { status: 'going' })).status).toBe(400);
    expect((await member.put(`/api/events/${id}/rsvp/me`, {})).status).toBe(400);
    for (const method of ['get', 'put', 'delete'] as const)
      expect((await anonymous()[method](`/api/events/${id}/rsvp/me`)).status, method).toBe(401);
  });

  it('refuses past and unapproved events (422) and subscribers (403)', async () => {
    const past = await create(admin, { title: 'Long ago', startDate: '2001-01-01T10:00:00Z', endDate: '2001-01-01T11:00:00Z' });
    const response = await member.put(`/api/events/${past}/rsvp/me`, { status: 'attending' });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('RSVP is no longer available for past events');
    const unapproved = await create(member, { title: 'Not yet' });
    expect((await member.put(`/api/events/${unapproved}/rsvp/me`, { status: 'attending' })).status).toBe(422);
    const open = await create(admin, { title: 'For all' });
    expect((await subscriber.put(`/api/events/${open}/rsvp/me`, { status: 'attending' })).status).toBe(403);
    expect((await subscriber.get(`/api/events/${open}/rsvp/me`)).body).toEqual({ status: null });
  });

  it('refuses lowering max attendees below those attending (422), and a place in a full event without a waiting list (409)', async () => {
    const id = await create(admin, { title: 'Small room', maxAttendees: 5, waitlist: false });
    await member.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    await other.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    const response = await admin.put(`/api/events/${id}`, event({ title: 'Small room', maxAttendees: 1, waitlist: false }));
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/2 people are already attending/);
    expect((await admin.put(`/api/events/${id}`, event({ title: 'Small room', maxAttendees: 2, waitlist: false }))).status).toBe(200);
    const full = await staff.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('Event is at capacity');
    expect((await staff.put(`/api/events/${id}/rsvp/me`, { status: 'maybe' })).status).toBe(200);
  });

  it('seats exactly max attendees when 200 members RSVP at once to an event without a waiting list, every time', async () => {
    const members: Browser[] = [];
    for (let batch = 0; batch < 10; batch++)
      members.push(...(await Promise.all(Array.from({ length: 20 }, () => registerMember(site.url).then((m) => m.browser)))));
    for (let round = 0; round < 4; round++) {
      const id = await create(admin, { title: `Hot event ${round}`, maxAttendees: 10, waitlist: false });
      const answers = await Promise.all(members.map((browser) => browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 409)).toHaveLength(190);
      expect(new Set(answers.filter((a) => a.status === 409).map((a) => a.body.message))).toEqual(new Set(['Event is at capacity']));
      expect((await anonymous().get(`/api/events/${id}/attendees-count`)).body).toEqual({ attending: 10, maybe: 0, notAttending: 0 });
      expect((await site.services.eventStore.readStream(`event-${id}`)).filter((e) => e.type === 'RsvpChanged')).toHaveLength(10);
    }
  }, 180_000);
});

describe('every call answers 401, 403 and 404 as its OpenAPI operation says', () => {
  const calls: [method: 'get' | 'put' | 'delete', path: (id: string) => string, signedIn: boolean, staffOnly: boolean][] = [
    ['get', (id) => `/api/events/${id}`, false, false],
    ['put', (id) => `/api/events/${id}`, true, false],
    ['delete', (id) => `/api/events/${id}`, true, true],
    ['get', (id) => `/api/events/${id}/rsvp/me`, true, false],
    ['put', (id) => `/api/events/${id}/rsvp/me`, true, false],
    ['delete', (id) => `/api/events/${id}/rsvp/me`, true, false],
    ['get', (id) => `/api/events/${id}/attendees-count`, false, false],
    ['get', (id) => `/api/events/${id}/ics`, false, false],
    ['put', (id) => `/api/admin/events/${id}/approve`, true, true],
    ['put', (id) => `/api/admin/events/${id}/reject`, true, true],
    ['put', (id) => `/api/admin/events/${id}/feature`, true, true],
  ];
  const bodies: Record<string, unknown> = { put: { status: 'maybe', ...event() }, delete: {} };

  it('gives 401 to anonymous callers and 403 to members where a role is needed', async () => {
    const id = await create(admin, { title: 'Access checks' });
    for (const [method, path, signedIn, staffOnly] of calls) {
      if (signedIn)
        expect((await anonymous().request(method.toUpperCase(), path(id), bodies[method])).status, `${method} ${path(id)}`).toBe(401);
      if (staffOnly)
        expect((await member.request(method.toUpperCase(), path(id), bodies[method])).status, `${method} ${path(id)}`).toBe(403);
    }
    for (const path of ['/api/admin/events/pending', '/api/admin/events/featured', '/api/admin/events/stats']) {
      expect((await anonymous().get(path)).status, path).toBe(401);
      expect((await member.get(path)).status, path).toBe(403);
      expect((await subscriber.get(path)).status, path).toBe(403);
      expect((await staff.get(path)).status, path).toBe(200);
    }
  });

  it('gives 404 for unknown and malformed ids', async () => {
    for (const id of [UNKNOWN_ID, 'not-a-uuid'])
      for (const [method, path] of calls) {
        const response = await admin.request(method.toUpperCase(), path(id), bodies[method]);
        expect(response.status, `${method} ${path(id)}`).toBe(404);
        expect(response.body.message).toBe('Event not found');
      }
  });
});

describe('calendar export', () => {
  it('downloads an event as a parseable iCalendar file with the spec’s file name', async () => {
    const id = await create(admin, { title: 'Réunion: WGN à 75 ans ☕', description: 'Photos, stories; memories', tags: ['wgn', 'tv'] });
    const response = await anonymous().get(`/api/events/${id}/ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="R_union_WGN___75_ans__2030-01-11.ics"; filename*=UTF-8''${encodeURIComponent('Réunion_WGN_à_75_ans__2030-01-11.ics')}`,
    );
    const calendar = new ICAL.Component(ICAL.parse(response.body));
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    const vevent = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    expect(vevent.summary).toBe('Réunion: WGN à 75 ans ☕');
    expect(vevent.uid).toBe(`${id}@${new URL(site.url).hostname}`);
    // First the time as the site shows it, naming its zone.
    expect(vevent.description).toMatch(
      /^When: \w+day, January \d+, 2030 · \d+:00 [AP]M – \d+:00 [AP]M C[SD]T\n\nEvent Type: Reunion\n\nPhotos, stories; memories\n\nTags: wgn, tv\n\nOrganizer: Ada Admin$/u,
    );
    expect(vevent.startDate.toJSDate().toISOString()).toBe(inDays(10));
    // The event's page, the organizer's name without their address, and no revision yet.
    expect(vevent.component.getFirstPropertyValue('url')).toBe(`${site.url}/events/${id}`);
    expect(vevent.component.getFirstProperty('organizer')!.getParameter('cn')).toBe('Ada Admin');
    expect(response.body).not.toMatch(/mailto:/iu);
    expect(vevent.sequence).toBe(0);

    // A new description is no revision for calendars; a new time or place is, each time.
    const edit = (overrides: Record<string, unknown>) =>
      admin.put(`/api/events/${id}`, event({ title: 'Réunion: WGN à 75 ans ☕', tags: ['wgn', 'tv'], ...overrides }));
    const sequence = async () =>
      new ICAL.Event(new ICAL.Component(ICAL.parse((await anonymous().get(`/api/events/${id}/ics`)).body)).getFirstSubcomponent('vevent')!)
        .sequence;
    await edit({ description: 'More photos' });
    expect(await sequence()).toBe(0);
    await edit({ startDate: inDays(11), endDate: inDays(11, 21) });
    expect(await sequence()).toBe(1);
    await edit({ startDate: inDays(11), endDate: inDays(11, 21), location: 'Navy Pier' });
    expect(await sequence()).toBe(2);
  });

  it('exports an all-day virtual event with date-only values, the end a day later, and its meeting link beside its page', async () => {
    const id = await create(admin, {
      title: 'Online archive day',
      allDay: true,
      isVirtual: true,
      virtualLink: 'https://meet.example.org/archive',
      startDate: '2030-05-04T00:00:00Z',
      endDate: '2030-05-04T00:00:00Z',
    });
    const vevent = new ICAL.Component(ICAL.parse((await anonymous().get(`/api/events/${id}/ics`)).body)).getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('dtstart')!.toString()).toBe('2030-05-04');
    expect(vevent.getFirstPropertyValue('dtend')!.toString()).toBe('2030-05-05');
    expect(vevent.getFirstPropertyValue('location')).toBe('Virtual Event');
    expect(vevent.getFirstPropertyValue('url')).toBe(`${site.url}/events/${id}`);
    expect(vevent.getFirstPropertyValue('conference')).toBe('https://meet.example.org/archive');
  });

  it('serves a subscribable feed of public approved events only', async () => {
    const feed = await anonymous().get('/api/calendar.ics');
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const summaries = new ICAL.Component(ICAL.parse(feed.body))
      .getAllSubcomponents('vevent')
      .map((c) => c.getFirstPropertyValue('summary'));
    expect(summaries).toContain('Broadcast anniversary');
    expect(summaries).toContain('Réunion: WGN à 75 ans ☕');
    expect(summaries).not.toContain('Board meeting');
    expect(summaries).not.toContain('Not yet');
    expect(summaries).not.toContain('Doubtful gathering');
  });
});

describe('live notices', () => {
  it('pushes each change to the rooms that may see it, within a second', async () => {
    const [anon, organizer, bystander, moderator] = await Promise.all([listen(), listen(member), listen(other), listen(staff)]);
    // The sidebar's badge notice carries the newsfeed's pending posts beside the events.
    expect((await member.post('/api/posts', { content: 'Waiting for a moderator' })).status).toBe(201);
    const { pending } = (await staff.get('/api/admin/events/stats')).body;
    const sent = Date.now();
    const id = await create(member, { title: 'Live test', maxAttendees: 3 });
    await expect
      .poll(() => moderator.texts())
      .toEqual(expect.arrayContaining([`events:changed created ${id}`, `pending:changed ${pending + 1}`]));
    await expect.poll(() => organizer.texts()).toContain(`events:changed created ${id}`);
    await staff.put(`/api/admin/events/${id}/approve`);
    await expect.poll(() => anon.texts()).toContain(`events:changed updated ${id}`);
    await expect.poll(() => moderator.texts()).toContain(`pending:changed ${pending}`);
    await other.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    await expect.poll(() => anon.texts()).toContain(`rsvp:changed 1/0/0 ${id}`);
    for (const socket of [organizer, bystander, moderator]) await expect.poll(() => socket.texts()).toContain(`rsvp:changed 1/0/0 ${id}`);
    // Someone attends: a delete cancels it (an update), a second one removes it.
    await staff.delete(`/api/events/${id}`);
    await expect.poll(() => bystander.texts().filter((text) => text === `events:changed updated ${id}`).length).toBe(2);
    await staff.delete(`/api/events/${id}`);
    await expect.poll(() => bystander.texts()).toContain(`events:changed removed ${id}`);

    // Until approved, the event was nobody else's business.
    expect(bystander.texts()).not.toContain(`events:changed created ${id}`);
    expect(anon.texts()).not.toContain(`events:changed created ${id}`);
    expect([...anon.texts(), ...organizer.texts(), ...bystander.texts()].some((text) => text.startsWith('pending:changed'))).toBe(false);
    const lastReceived = Math.max(...[anon, organizer, bystander, moderator].flatMap((s) => s.received.map((r) => r.at)));
    expect(lastReceived - sent).toBeLessThan(5000);
  });

  it('a notice follows its command’s answer within a second', async () => {
    const watcher = await listen(other);
    const id = await create(admin, { title: 'Latency' });
    await expect.poll(() => watcher.texts()).toContain(`events:changed created ${id}`);
    const answered = Date.now();
    await member.put(`/api/events/${id}/rsvp/me`, { status: 'maybe' });
    await expect.poll(() => watcher.texts()).toContain(`rsvp:changed 0/1/0 ${id}`);
    const notice = watcher.received.find((r) => r.text === `rsvp:changed 0/1/0 ${id}`)!;
    expect(notice.at - answered).toBeLessThan(1000);
  });
});

describe('read models', () => {
  const collections = [EVENT_DETAILS, EVENT_CALENDAR, MEMBER_EVENTS, EVENT_STATS];
  const snapshot = async () =>
    Object.fromEntries(
      await Promise.all(
        collections.map(async (name) => [name, await site.services.store.collection(name).find({}, { sort: { _id: 1 } })] as const),
      ),
    );

  it('are unchanged when every event is applied a second time', async () => {
    const before = await snapshot();
    expect(before[EVENT_DETAILS]!.length).toBeGreaterThan(10);
    const projections = allProjections.filter((p) => ['events', 'member-events', 'event-stats'].includes(p.name));
    // Applied by hand besides the site's runner, as a replay would: through the store itself.
    const apart = readModelsApart(site);
    const head = await site.services.eventStore.headPosition();
    const controller = new AbortController();
    for await (const recorded of site.services.eventStore.subscribeToAll({ after: 0, signal: controller.signal })) {
      for (const projection of projections) await projection.apply(recorded, { store: apart, notify: () => undefined, live: false });
      if (recorded.position >= head) controller.abort();
    }
    expect(await snapshot()).toEqual(before);
  }, 60_000);
});

describe('a day of the calendar (its “+N more”)', () => {
  it('lists every event shown on the day, read in the given zone, and all-day events on their date everywhere', async () => {
    // 22:30 on 9 February in Chicago is 04:30 on the 10th in UTC.
    await create(admin, { title: 'Late show', startDate: '2031-02-10T04:30:00Z', endDate: '2031-02-10T05:30:00Z' });
    await create(admin, { title: 'Archive day', allDay: true, startDate: '2031-02-09T00:00:00Z', endDate: '2031-02-09T00:00:00Z' });
    await create(admin, { title: 'Next week', startDate: '2031-02-16T18:00:00Z', endDate: '2031-02-16T19:00:00Z' });
    const day = async (query: string) => titles(await anonymous().get(`/api/events?${query}`));
    expect(await day('day=2031-02-09&tz=America/Chicago')).toEqual(['Archive day', 'Late show']);
    expect(await day('day=2031-02-10&tz=America/Chicago')).toEqual([]);
    expect(await day('day=2031-02-10&tz=UTC')).toEqual(['Late show']);
    expect(await day('day=2031-02-09&tz=Pacific/Auckland')).toEqual(['Archive day']);
    expect((await anonymous().get('/api/events?day=2031-02-09&tz=America/Chicago')).body.nextCursor).toBeNull();
    expect((await anonymous().get('/api/events?day=9 February')).status).toBe(400);
    expect((await anonymous().get('/api/events?day=2031-02-09&tz=Mars/Olympus')).status).toBe(400);
  });
});

describe('cancellation', () => {
  it('lets the organizer cancel: the event stays listed as cancelled, takes no RSVPs, and calendars learn of it', async () => {
    const id = await create(member, { title: 'Club night' });
    await admin.put(`/api/admin/events/${id}/approve`);
    expect((await other.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).status).toBe(200);
    expect((await other.post(`/api/events/${id}/cancel`)).status).toBe(403);
    const cancelled = await member.post(`/api/events/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ isCancelled: true, attendeeCount: 1 });
    expect((await member.post(`/api/events/${id}/cancel`)).status).toBe(200);
    expect(titles(await anonymous().get('/api/events?q=club'))).toEqual(['Club night']);
    expect((await anonymous().get(`/api/events/${id}`)).body.isCancelled).toBe(true);
    expect((await staff.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).status).toBe(422);
    expect((await member.put(`/api/events/${id}`, event({ title: 'Club night' }))).status).toBe(422);
    const vevent = new ICAL.Component(ICAL.parse((await anonymous().get(`/api/events/${id}/ics`)).body)).getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(vevent.getFirstPropertyValue('sequence')).toBe(1);
  });

  it('cancels instead of deleting an event someone attends; a second delete removes it', async () => {
    const id = await create(admin, { title: 'Crowded hall' });
    await other.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    expect((await staff.delete(`/api/events/${id}`)).status).toBe(204);
    expect((await anonymous().get(`/api/events/${id}`)).body).toMatchObject({ isCancelled: true });
    expect((await staff.delete(`/api/events/${id}`)).status).toBe(204);
    expect((await anonymous().get(`/api/events/${id}`)).status).toBe(404);
  });
});
