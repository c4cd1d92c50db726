/**
 * The whole site on the scale-out engines (EVENT_STORE=kurrentdb, READ_STORE=mongodb), when KURRENTDB_URL and
 * MONGODB_URL are both set (`npm run test:scale-out` starts both in Docker; the hosted CI workflow runs them as
 * service containers): register, roles, a post read back at once, moderation, an event's capacity under 12 members
 * asking at once, and the mail a freed place sends. The KurrentDB server must hold no community yet (the first
 * account becomes the admin); a fresh MongoDB database is made for the run and dropped after it.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLIMITED_RATES, type TestSite } from '../support/site';
import { Browser, registerCast, registerMember } from '../support/http';
import { closeMailingSite, startMailingSite, type CountingSmtp } from './subscriptions/delivery-fixtures';

const kurrentDbUrl = process.env.KURRENTDB_URL;
const mongoDbUrl = process.env.MONGODB_URL;

/** The MongoDB URL with another database in its path (multi-host URLs included, which WHATWG URL cannot parse). */
const withDatabase = (url: string, database: string) => url.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?/, `$1/${database}`);

describe.skipIf(!kurrentDbUrl || !mongoDbUrl)('the site on KurrentDB and MongoDB', () => {
  const database = `bhc_test_${randomBytes(6).toString('hex')}`;
  let smtp: CountingSmtp;
  let site: TestSite;
  let cast: Awaited<ReturnType<typeof registerCast>>;

  beforeAll(async () => {
    ({ smtp, site } = await startMailingSite({
      ...UNLIMITED_RATES,
      EVENT_STORE: 'kurrentdb',
      KURRENTDB_URL: kurrentDbUrl!,
      READ_STORE: 'mongodb',
      MONGODB_URL: withDatabase(mongoDbUrl!, database),
    }));
    const founder = await site.services.eventStore.readStream('founder-community');
    if (founder.length > 0)
      throw new Error(
        `The KurrentDB at ${kurrentDbUrl} already holds a community (its first account exists); this suite needs an empty one, as npm run test:scale-out starts.`,
      );
    cast = await registerCast(site.url);
  }, 120_000);

  afterAll(async () => {
    await closeMailingSite(site, smtp);
    if (mongoDbUrl) {
      const client = await new MongoClient(mongoDbUrl).connect();
      await client.db(database).dropDatabase();
      await client.close();
    }
  });

  it('runs on the configured engines, ready, with its checkpoint naming the KurrentDB log', async () => {
    expect(await site.services.eventStore.identity()).toMatch(/^kurrentdb:/);
    const ready = await new Browser(site.url).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready' });
    const checkpoint = await site.services.store.collection('projection_checkpoints').findOne({ _id: 'read-models' });
    expect(checkpoint).toMatchObject({ eventStore: await site.services.eventStore.identity() });
  });

  it('gives the first account the admin role and shows role changes at once', async () => {
    expect(cast.admin.user.role).toBe('admin');
    expect((await cast.staff.browser.get('/api/auth/user')).body).toMatchObject({ role: 'staff' });
    expect((await cast.subscriber.browser.get('/api/auth/user')).body).toMatchObject({ role: 'subscriber' });
  });

  it('reads a post back at once, keeps a member post for moderation and publishes it on approval', async () => {
    const staffPost = await cast.staff.browser.post('/api/posts', { content: 'KWKH signed on in 1925', tags: ['anniversary'] });
    expect(staffPost.status).toBe(201);
    expect((await cast.member.browser.get('/api/posts?limit=10')).body.items.map((post: { id: string }) => post.id)).toContain(
      staffPost.body.id,
    );

    const memberPost = await cast.member.browser.post('/api/posts', { content: 'My father read the farm report' });
    expect(memberPost.body).toMatchObject({ status: 'pending' });
    expect((await cast.other.browser.get('/api/posts?limit=10')).body.items.map((post: { id: string }) => post.id)).not.toContain(
      memberPost.body.id,
    );
    expect((await cast.staff.browser.put(`/api/admin/posts/${memberPost.body.id}/approve`)).status).toBe(200);
    expect((await cast.other.browser.get('/api/posts?limit=10')).body.items.map((post: { id: string }) => post.id)).toContain(
      memberPost.body.id,
    );
  });

  it('seats exactly as many as an event holds when members ask at once, and mails the member a freed place goes to', async () => {
    const created = await cast.admin.browser.post('/api/events', {
      title: 'Tower reunion',
      startDate: '2031-06-01T18:00:00Z',
      endDate: '2031-06-01T21:00:00Z',
      maxAttendees: 4,
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const members = await Promise.all(Array.from({ length: 12 }, () => registerMember(site.url)));
    const answers = await Promise.all(members.map(({ browser }) => browser.put(`/api/events/${id}/rsvp/me`, { status: 'attending' })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    expect(answers.filter((answer) => answer.body.status === 'attending')).toHaveLength(4);
    const waiting = answers.filter((answer) => answer.body.status === 'waitlisted');
    expect(waiting.map((answer) => answer.body.position).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await new Browser(site.url).get(`/api/events/${id}`)).body).toMatchObject({ attendeeCount: 4, waitlistCount: 8 });

    const leaving = members[answers.findIndex((answer) => answer.body.status === 'attending')]!;
    const first = members[answers.findIndex((answer) => answer.body.position === 1)]!;
    expect((await leaving.browser.delete(`/api/events/${id}/rsvp/me`)).status).toBe(200);
    expect((await first.browser.get(`/api/events/${id}/rsvp/me`)).body).toEqual({ status: 'attending' });
    await expect.poll(() => smtp.to(first.user.email).length, { timeout: 30_000, interval: 100 }).toBe(1);
    expect(smtp.to(first.user.email)[0]!.subject).toContain('Tower reunion');
  });
});
