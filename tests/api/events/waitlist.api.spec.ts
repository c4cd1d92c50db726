/**
 * The waiting list over HTTP: a full event puts members in line with their position, a freed place goes to
 * the first in line at once, the organizer and staff see the line, and 200 members asking at once for 10
 * places leave exactly 10 attending and 190 in line in the order the event's stream decided.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RSVP_RUSH_LIMITS, startTestSite, type TestSite } from '../../support/site';
import { createEvent } from '../../support/content';
import { Browser, registerCast, registerMember } from '../../support/http';

let site: TestSite;
let admin: Browser;
let staff: Browser;
let member: Browser;
let other: Browser;
let otherId: string;
let memberId: string;
const event = (overrides: Record<string, unknown> = {}) => ({
  title: 'WGN reunion',
  startDate: '2030-02-01T18:00:00Z',
  endDate: '2030-02-01T21:00:00Z',
  ...overrides,
});
const create = (browser: Browser, overrides: Record<string, unknown> = {}) => createEvent(browser, event(overrides));

beforeAll(async () => {
  site = await startTestSite(RSVP_RUSH_LIMITS);
  const cast = await registerCast(site.url);
  ({
    admin: { browser: admin },
    staff: { browser: staff },
    member: { browser: member },
    other: { browser: other },
  } = cast);
  memberId = cast.member.user.id;
  otherId = cast.other.user.id;
});
afterAll(() => site?.close());

describe('the waiting list', () => {
  it('puts members in line for a full event, shows their place, and seats the first in line when a place frees', async () => {
    const id = await create(admin, { title: 'One seat', maxAttendees: 1 });
    expect((await staff.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).body).toMatchObject({
      status: 'attending',
      attending: 1,
      waitlistCount: 0,
    });
    expect((await member.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).body).toEqual({
      status: 'waitlisted',
      position: 1,
      attending: 1,
      maybe: 0,
      notAttending: 0,
      waitlistCount: 1,
    });
    expect((await other.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).body).toMatchObject({
      status: 'waitlisted',
      position: 2,
      waitlistCount: 2,
    });
    // Asking again keeps the place in line.
    expect((await other.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })).body).toMatchObject({
      status: 'waitlisted',
      position: 2,
    });

    expect((await other.get(`/api/events/${id}/rsvp/me`)).body).toEqual({ status: 'waitlisted', position: 2 });
    expect((await other.get(`/api/events/${id}`)).body).toMatchObject({
      myRsvp: 'waitlisted',
      myWaitlistPosition: 2,
      waitlistCount: 2,
      waitlist: true,
      attendeeCount: 1,
    });
    expect((await other.get('/api/user/events')).body.items).toEqual([expect.objectContaining({ id, myRsvp: 'waitlisted' })]);
    expect((await new Browser(site.url).get(`/api/events/${id}`)).body).toMatchObject({ waitlistCount: 2 });

    // The organizer (here an admin) and staff see the line; a member does not.
    expect((await admin.get(`/api/events/${id}/waitlist`)).body.items).toEqual([
      expect.objectContaining({ memberId, position: 1 }),
      expect.objectContaining({ memberId: otherId, position: 2 }),
    ]);
    expect((await staff.get(`/api/events/${id}/waitlist`)).status).toBe(200);
    expect((await member.get(`/api/events/${id}/waitlist`)).status).toBe(403);

    // The seat frees: the first in line has it at once; the second moves up.
    expect((await staff.delete(`/api/events/${id}/rsvp/me`)).body).toMatchObject({ status: null, attending: 1, waitlistCount: 1 });
    expect((await member.get(`/api/events/${id}/rsvp/me`)).body).toEqual({ status: 'attending' });
    expect((await other.get(`/api/events/${id}/rsvp/me`)).body).toEqual({ status: 'waitlisted', position: 1 });
    expect((await member.get('/api/user/events')).body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, myRsvp: 'attending' })]),
    );

    // A raised limit seats the rest of the line; leaving the line is an answer like any other.
    expect((await admin.put(`/api/events/${id}`, event({ title: 'One seat', maxAttendees: 2 }))).body).toMatchObject({
      attendeeCount: 2,
      waitlistCount: 0,
    });
    expect((await other.get(`/api/events/${id}/rsvp/me`)).body).toEqual({ status: 'attending' });
    const stream = (await site.services.eventStore.readStream(`event-${id}`)).map((e) => e.type);
    expect(stream.filter((type) => type === 'PromotedFromWaitlist')).toHaveLength(2);
  });

  it('lets a member leave the line, by another answer or by taking theirs back', async () => {
    const id = await create(admin, { title: 'Tiny room', maxAttendees: 1 });
    await staff.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    await member.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    await other.put(`/api/events/${id}/rsvp/me`, { status: 'attending' });
    expect((await member.put(`/api/events/${id}/rsvp/me`, { status: 'maybe' })).body).toMatchObject({
      status: 'maybe',
      attending: 1,
      maybe: 1,
      waitlistCount: 1,
    });
    expect((await other.get(`/api/events/${id}/rsvp/me`)).body).toEqual({ status: 'waitlisted', position: 1 });
    expect((await other.delete(`/api/events/${id}/rsvp/me`)).body).toMatchObject({ status: null, waitlistCount: 0 });
    expect((await other.get('/api/user/events')).body.items.map((e: { id: string }) => e.id)).not.toContain(id);
  });

  it('lines up 190 of 200 members asking at once for 10 places, in the order the event decided, every time', async () => {
    const members: Browser[] = [];
    for (let batch = 0; batch < 10; batch++)
      members.push(...(await Promise.all(Array.from({ length: 20 }, () => registerMember(site.url).then((m) => m.browser)))));
    for (let round = 0; round < 2; round++) {
      const id = await create(admin, { title: `Hot event ${round}`, maxAttendees: 10 });
      const answers = await Promise.all(members.map((browser) => browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      expect(answers.filter((answer) => answer.body.status === 'attending')).toHaveLength(10);
      const positions = answers.filter((answer) => answer.body.status === 'waitlisted').map((answer) => answer.body.position as number);
      expect(positions.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 190 }, (_, i) => i + 1));
      const recorded = await site.services.eventStore.readStream(`event-${id}`);
      expect(recorded.filter((e) => e.type === 'RsvpChanged')).toHaveLength(10);
      expect(recorded.filter((e) => e.type === 'JoinedWaitlist')).toHaveLength(190);
      // The read models follow the stream (under such a rush, after the answers).
      await expect
        .poll(async () => (await admin.get(`/api/events/${id}`)).body, { timeout: 20_000 })
        .toMatchObject({ attendeeCount: 10, waitlistCount: 190 });

      // Ten leave at once while ten more of the line ask again: the next ten in line, and only they, are seated.
      const seated = members.filter((_, i) => answers[i]!.body.status === 'attending');
      const waiting = members.filter((_, i) => answers[i]!.body.status === 'waitlisted');
      const line = (await admin.get(`/api/events/${id}/waitlist`)).body.items as { memberId: string; position: number }[];
      expect(line.map((entry) => entry.memberId)).toEqual(
        recorded.filter((e) => e.type === 'JoinedWaitlist').map((e) => (e.data as { memberId: string }).memberId),
      );
      await Promise.all([
        ...seated.map((browser) => browser.delete(`/api/events/${id}/rsvp/me`)),
        ...waiting.slice(0, 10).map((browser) => browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })),
      ]);
      await expect
        .poll(async () => (await admin.get(`/api/events/${id}`)).body, { timeout: 20_000 })
        .toMatchObject({ attendeeCount: 10, waitlistCount: 180 });
      const after = (await admin.get(`/api/events/${id}/waitlist`)).body.items as { memberId: string }[];
      expect(after.map((entry) => entry.memberId)).toEqual(line.slice(10).map((entry) => entry.memberId));
    }
  }, 180_000);
});
