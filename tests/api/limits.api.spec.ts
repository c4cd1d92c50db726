/**
 * The limits of issue 13 finding 4, through HTTP against a real site: tags per item and their length on feed posts,
 * events and blog posts; the event creation rate limit; a share counted once per visitor and post per day, with its
 * own rate limit; the calendar feed's reach; trending tags read from per-tag counts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { readModelsApart, siteWithCast, UNLIMITED_RATES, type Cast, type TestSite } from '../support/site';
import { Browser } from '../support/http';
import { streamName } from '../../shared/streams';
import { feedProjection, tagCounts, tagDays, tagWindow } from '../../projections/feed/feed';

const DAY_MS = 24 * 3600 * 1000;
/** Ten distinct tags of exactly forty characters. */
const tenLongTags = Array.from({ length: 10 }, (_, index) => `${index}`.padStart(40, 'x'));
const elevenTags = Array.from({ length: 11 }, (_, index) => `tag${index}`);
const tooLongTag = 'y'.repeat(41);
const event = (overrides: Record<string, unknown> = {}) => ({
  title: 'WGN reunion',
  startDate: '2031-05-01T18:00:00.000Z',
  endDate: '2031-05-01T21:00:00.000Z',
  ...overrides,
});

/** A guest at `address` (the site trusts X-Forwarded-For, as behind a reverse proxy). */
const guestAt = (site: TestSite, address: string) => ({
  share: (postId: string) => new Browser(site.url).request('POST', `/api/posts/${postId}/share`, {}, { 'x-forwarded-for': address }),
});

/** Runs `during` with the site's clock moved by `days` (posts are dated by it). */
async function daysFromNow<T>(site: TestSite, days: number, during: () => Promise<T>): Promise<T> {
  const realNow = site.services.now;
  site.services.now = () => new Date(Date.now() + days * DAY_MS);
  try {
    return await during();
  } finally {
    site.services.now = realNow;
  }
}

describe('with every rate out of reach', () => {
  let site: TestSite;
  let cast: Cast;
  siteWithCast({ ...UNLIMITED_RATES, TRUST_PROXY: '1' }, (started) => ({ site, cast } = started));

  describe('tags: at most 10 per item, each at most 40 characters, counted as the reader sees them', () => {
    it('on feed posts', async () => {
      const { member } = cast;
      const accepted = await member.browser.post('/api/posts', { content: 'Ten tags', tags: tenLongTags });
      expect(accepted.status).toBe(201);
      expect(accepted.body.tags).toEqual(tenLongTags);
      // Repeats after normalisation ("#Radio" is "radio") do not count.
      const repeats = await member.browser.post('/api/posts', {
        content: 'Repeats',
        tags: [...elevenTags.slice(0, 10), '#TAG0', ' tag1 '],
      });
      expect(repeats.status).toBe(201);
      expect(repeats.body.tags).toEqual(elevenTags.slice(0, 10));

      const many = await member.browser.post('/api/posts', { content: 'Eleven tags', tags: elevenTags });
      expect(many.status).toBe(400);
      expect(many.body).toEqual({ message: 'At most 10 tags', fields: { tags: 'At most 10 tags' } });
      const long = await member.browser.post('/api/posts', { content: 'A long tag', tags: ['radio', tooLongTag] });
      expect(long.status).toBe(400);
      expect(long.body.fields).toEqual({ tags: 'Tags must be at most 40 characters' });
    });

    it('on events, created and edited', async () => {
      const { member } = cast;
      const accepted = await member.browser.post('/api/events', event({ tags: tenLongTags }));
      expect(accepted.status).toBe(201);
      expect(accepted.body.tags).toEqual(tenLongTags);
      const id = accepted.body.id as string;

      const many = await member.browser.post('/api/events', event({ tags: elevenTags }));
      expect(many.status).toBe(400);
      expect(many.body.fields).toEqual({ tags: 'At most 10 tags' });
      expect((await member.browser.post('/api/events', event({ tags: [tooLongTag] }))).body.fields).toEqual({
        tags: 'Tags must be at most 40 characters',
      });
      const edited = await member.browser.put(`/api/events/${id}`, event({ tags: elevenTags }));
      expect(edited.status).toBe(400);
      expect(edited.body.fields).toEqual({ tags: 'At most 10 tags' });
    });

    it('on blog posts, created and edited', async () => {
      const { admin } = cast;
      const accepted = await admin.browser.post('/api/blog', { title: 'Ten tags', content: '<p>Text</p>', tags: tenLongTags });
      expect(accepted.status).toBe(201);
      expect(accepted.body.tags).toEqual(tenLongTags);
      const id = accepted.body.id as string;

      const many = await admin.browser.post('/api/blog', { title: 'Eleven tags', content: '<p>Text</p>', tags: elevenTags });
      expect(many.status).toBe(400);
      expect(many.body.fields).toEqual({ tags: 'At most 10 tags' });
      expect(
        (await admin.browser.post('/api/blog', { title: 'Long tag', content: '<p>Text</p>', tags: [tooLongTag] })).body.fields,
      ).toEqual({ tags: 'Tags must be at most 40 characters' });
      const edited = await admin.browser.patch(`/api/blog/${id}`, {
        title: 'Ten tags',
        excerpt: '',
        content: '<p>Text</p>',
        tags: [tooLongTag],
      });
      expect(edited.status).toBe(400);
      expect(edited.body.fields).toEqual({ tags: 'Tags must be at most 40 characters' });
    });
  });

  describe('shares: once per visitor and post per day', () => {
    let postId: string;
    const shareEvents = async () =>
      (await site.services.eventStore.readStream(streamName('post', postId))).filter((recorded) => recorded.type === 'PostShared').length;

    beforeAll(async () => {
      postId = (await cast.staff.browser.post('/api/posts', { content: 'Share me' })).body.id as string;
    });

    it('counts a member’s repeated shares once, and appends nothing for the repeat', async () => {
      expect((await cast.member.browser.post(`/api/posts/${postId}/share`)).body.shares).toBe(1);
      const again = await cast.member.browser.post(`/api/posts/${postId}/share`);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id: postId, shares: 1 });
      expect(await shareEvents()).toBe(1);
    });

    it('counts two members twice, and each of them once however often', async () => {
      const shares = await Promise.all(
        [cast.other.browser, cast.other.browser, cast.subscriber.browser, cast.subscriber.browser].map((browser) =>
          browser.post(`/api/posts/${postId}/share`),
        ),
      );
      expect(shares.map((response) => response.status)).toEqual([200, 200, 200, 200]);
      expect(
        (await cast.member.browser.get('/api/posts?limit=100')).body.items.find((post: { id: string }) => post.id === postId).shares,
      ).toBe(3);
      expect(await shareEvents()).toBe(3);
    });

    it('counts guests by address', async () => {
      expect((await guestAt(site, '203.0.113.7').share(postId)).body.shares).toBe(4);
      expect((await guestAt(site, '203.0.113.7').share(postId)).body.shares).toBe(4);
      expect((await guestAt(site, '203.0.113.8').share(postId)).body.shares).toBe(5);
      expect(await shareEvents()).toBe(5);
    });

    it('counts the same visitor again the next day', async () => {
      const shared = await daysFromNow(site, 1, () => cast.member.browser.post(`/api/posts/${postId}/share`));
      expect(shared.body.shares).toBe(6);
    });

    it('still refuses what cannot be shared, repeated or not', async () => {
      const pending = (await cast.member.browser.post('/api/posts', { content: 'Not approved yet' })).body.id as string;
      expect((await cast.member.browser.post(`/api/posts/${pending}/share`)).status).toBe(422);
      expect((await cast.member.browser.post('/api/posts/00000000-0000-4000-8000-000000000000/share')).status).toBe(404);
      await cast.staff.browser.delete(`/api/posts/${postId}`);
      expect((await cast.member.browser.post(`/api/posts/${postId}/share`)).status).toBe(404);
    });
  });

  describe('the calendar feed', () => {
    it('covers public approved events from 90 days ago onward', async () => {
      const startingDaysAgo = async (days: number, title: string) => {
        const start = new Date(Date.now() - days * DAY_MS);
        const created = await cast.staff.browser.post(
          '/api/events',
          event({ title, startDate: start.toISOString(), endDate: new Date(start.getTime() + 3600 * 1000).toISOString() }),
        );
        expect(created.status).toBe(201);
      };
      await startingDaysAgo(91, 'Ninety-one days ago');
      await startingDaysAgo(89, 'Eighty-nine days ago');
      const feed = await new Browser(site.url).get('/api/calendar.ics');
      const summaries = new ICAL.Component(ICAL.parse(feed.body))
        .getAllSubcomponents('vevent')
        .map((component) => component.getFirstPropertyValue('summary'));
      expect(summaries).toContain('Eighty-nine days ago');
      expect(summaries).not.toContain('Ninety-one days ago');
    });
  });
});

describe('with low limits', () => {
  let site: TestSite;
  let cast: Cast;
  siteWithCast(
    { RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000', RATE_LIMIT_EVENT_MAX: '3', RATE_LIMIT_SHARE_MAX: '3', TRUST_PROXY: '1' },
    (started) => ({ site, cast } = started),
  );

  it('limits event creation per address (429 past RATE_LIMIT_EVENT_MAX a minute)', async () => {
    for (let i = 0; i < 3; i++) expect((await cast.member.browser.post('/api/events', event({ title: `Reunion ${i}` }))).status).toBe(201);
    const limited = await cast.member.browser.post('/api/events', event({ title: 'One too many' }));
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many attempts/);
    const elsewhere = await cast.member.browser.request('POST', '/api/events', event({ title: 'From another address' }), {
      'x-forwarded-for': '198.51.100.4',
    });
    expect(elsewhere.status).toBe(201);
  });

  it('limits shares per address, counted or not (429 past RATE_LIMIT_SHARE_MAX a minute)', async () => {
    const postId = (await cast.staff.browser.post('/api/posts', { content: 'Share me often' })).body.id as string;
    const guest = guestAt(site, '198.51.100.9');
    for (let i = 0; i < 3; i++) expect((await guest.share(postId)).status).toBe(200);
    expect((await guest.share(postId)).status).toBe(429);
    expect((await guestAt(site, '198.51.100.10').share(postId)).body.shares).toBe(2);
  });

  describe('trending tags', () => {
    const post = (days: number, tags: string[]) =>
      daysFromNow(site, days, async () => {
        const created = await cast.staff.browser.post('/api/posts', { content: `Posted ${days} days from now`, tags });
        expect(created.status).toBe(201);
      });

    it('are the top five of the last 30 days, most first then by tag, however long ago the newest post was', async () => {
      // Older than the window once later posts arrive: leaves the counts when they do.
      for (let i = 0; i < 3; i++) await post(-45, ['ancient']);
      // Inside the window that ends on the newest post (12 days ago), but not inside today's.
      for (let i = 0; i < 4; i++) await post(-35, ['stale']);
      await post(-25, ['crystal', 'wgn']);
      await post(-25, ['crystal']);
      await post(-12, ['kmox', 'am', 'fm', 'zz']);
      const stats = await cast.member.browser.get('/api/stats');
      expect(stats.body.trendingTags).toEqual([
        { tag: 'crystal', count: 2 },
        { tag: 'am', count: 1 },
        { tag: 'fm', count: 1 },
        { tag: 'kmox', count: 1 },
        { tag: 'wgn', count: 1 },
      ]);
    });

    it('keep one count per tag over the window of the newest post, and none for days that left it', async () => {
      const counts = await tagCounts(site.services.store).find({}, { sort: { count: -1, _id: 1 } });
      expect(counts.map(({ _id, count }) => [_id, count])).toEqual([
        ['stale', 4],
        ['crystal', 2],
        ['am', 1],
        ['fm', 1],
        ['kmox', 1],
        ['wgn', 1],
        ['zz', 1],
      ]);
      // A post today moves the window on: the stale days leave it.
      await post(0, ['today']);
      const after = await tagCounts(site.services.store).find({}, { sort: { count: -1, _id: 1 } });
      expect(after.map(({ _id }) => _id)).not.toContain('stale');
      expect((await cast.member.browser.get('/api/stats')).body.trendingTags[0]).toEqual({ tag: 'crystal', count: 2 });
    });

    it('keep the same counts when every post is applied again, and when rebuilt from the log', async () => {
      const { eventStore } = site.services;
      // Applied by hand besides the site's runner, as a replay would: through the store itself.
      const store = readModelsApart(site);
      const snapshot = () => tagCounts(store).find({}, { sort: { _id: 1 } });
      const replay = async () => {
        const head = await eventStore.headPosition();
        const controller = new AbortController();
        for await (const recorded of eventStore.subscribeToAll({ after: 0, signal: controller.signal })) {
          await feedProjection.apply(recorded, { store, notify: () => undefined, live: false });
          if (recorded.position >= head) controller.abort();
        }
      };
      const live = await snapshot();
      await replay();
      expect(await snapshot()).toEqual(live);
      await tagCounts(store).drop();
      await tagDays(store).drop();
      await tagWindow(store).drop();
      await replay();
      expect(await snapshot()).toEqual(live);
    }, 60_000);
  });
});
