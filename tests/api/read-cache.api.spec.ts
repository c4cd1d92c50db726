/**
 * The read cache (server/http/read-cache.ts) across two processes of one site: each keeps its feed, blog, RSS and
 * public pages until the next event, and still shows a reader their own write at once on the process that took it,
 * another process's write within a moment, their own pending posts only to them, and each reader's own likes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../support/site';
import { Browser, registerCast } from '../support/http';

let site: TestSite;
let apiOnly: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;

beforeAll(async () => {
  site = await startTestSite(UNLIMITED_RATES);
  apiOnly = await startTestSite(UNLIMITED_RATES, site);
  cast = await registerCast(site.url);
});
afterAll(async () => {
  await apiOnly?.close();
  await site?.close();
});

type FeedPost = { id: string; content: string; likedByMe: boolean; status: string };
const feed = async (browser: Browser) => (await browser.get('/api/posts?limit=20')).body.items as FeedPost[];
const contents = async (browser: Browser) => (await feed(browser)).map((post) => post.content);

describe('the feed kept between events', () => {
  it('shows a write at once on the process that took it, and on the other within a moment', async () => {
    const onRunner = cast.member.browser;
    const onApi = cast.member.browser.at(apiOnly.url);
    // Both processes have the feed as it is now.
    expect(await contents(onRunner)).toEqual(await contents(onApi));

    await cast.staff.browser.post('/api/posts', { content: 'Posted where the projections run' });
    expect(await contents(onRunner)).toContain('Posted where the projections run');
    await expect.poll(() => contents(onApi), { timeout: 1000, interval: 20 }).toContain('Posted where the projections run');

    await cast.staff.browser.at(apiOnly.url).post('/api/posts', { content: 'Posted on the API process' });
    // The process that answered the command had seen its position before answering: its next read has the post.
    expect(await contents(cast.staff.browser.at(apiOnly.url))).toContain('Posted on the API process');
    expect(await contents(onRunner)).toContain('Posted on the API process');
  });

  it("shows a member's pending post to them only, on both processes", async () => {
    const created = await cast.member.browser.at(apiOnly.url).post('/api/posts', { content: 'Waiting for a moderator' });
    expect(created.body.status).toBe('pending');
    expect(await contents(cast.member.browser.at(apiOnly.url))).toContain('Waiting for a moderator');
    await expect.poll(() => contents(cast.member.browser), { timeout: 1000, interval: 20 }).toContain('Waiting for a moderator');
    expect(await contents(cast.other.browser)).not.toContain('Waiting for a moderator');
    expect(await contents(cast.other.browser.at(apiOnly.url))).not.toContain('Waiting for a moderator');
  });

  it('tells each reader their own likes from the same kept page', async () => {
    const id = (await cast.staff.browser.post('/api/posts', { content: 'Like me' })).body.id as string;
    const liked = async (browser: Browser) => (await feed(browser)).find((post) => post.id === id)?.likedByMe;
    await expect.poll(() => liked(cast.other.browser.at(apiOnly.url)), { timeout: 1000, interval: 20 }).toBe(false);
    await cast.member.browser.put(`/api/posts/${id}/like`);
    expect(await liked(cast.member.browser)).toBe(true);
    await expect.poll(() => liked(cast.member.browser.at(apiOnly.url)), { timeout: 1000, interval: 20 }).toBe(true);
    expect(await liked(cast.other.browser.at(apiOnly.url))).toBe(false);
    expect(await liked(cast.other.browser)).toBe(false);
    expect(await liked(new Browser(apiOnly.url))).toBe(false);
  });

  it('keeps the blog, RSS and the public blog page the same way', async () => {
    const created = (
      await cast.admin.browser.post('/api/blog', { title: 'Kept until the next event', isPublished: true, content: '<p>First words</p>' })
    ).body as { id: string; slug: string };
    const { id, slug } = created;
    const visitor = new Browser(apiOnly.url);
    await expect.poll(async () => (await visitor.get(`/api/blog/${id}`)).status, { timeout: 1000, interval: 20 }).toBe(200);
    expect((await visitor.get('/rss')).body).toContain('Kept until the next event');
    expect((await visitor.get(`/blog/${slug}`)).body).toContain('First words');
    await cast.admin.browser.patch(`/api/blog/${id}`, { title: 'Changed since', content: '<p>Second words</p>' });
    expect((await cast.admin.browser.get(`/api/blog/${id}`)).body.title).toBe('Changed since');
    // Each answer is kept until the process sees the runner move on (read every FRESH_MS): one read for the first time
    // since may show the edit while an answer kept from before still shows what was, until that look.
    const soon = { timeout: 1000, interval: 20 };
    await expect.poll(async () => (await visitor.get(`/api/blog/${id}`)).body.title, soon).toBe('Changed since');
    await expect.poll(async () => (await visitor.get('/rss')).body, soon).toContain('Changed since');
    await expect
      .poll(async () => (await visitor.get('/api/blog')).body.items.map((post: { title: string }) => post.title), soon)
      .toContain('Changed since');
    await expect.poll(async () => (await visitor.get(`/blog/${slug}`)).body, soon).toContain('Second words');
  });
});
