/**
 * The newsfeed and the admin dashboard in real browsers, several members at once:
 * moderation end to end with live updates, likes, search and filters, scripts shown
 * as text, the "N new posts" pill, promotion and suspension.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, siteInBrowser, openNewsfeedAs, openNewsfeedForThree, person, screenshot } from '../support/browser';

let site: TestSite;
let browser: Browser;
let staffPage: Page;
let memberPage: Page;
let otherPage: Page;

const postTexts = (page: Page) => page.getByRole('article').allTextContents();

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  ({ admin: staffPage, member: memberPage, other: otherPage } = await openNewsfeedForThree(chromium, site.url));
});

describe('newsfeed', () => {
  it('keeps a member’s post pending for its author only, until staff approve it live', async () => {
    const composer = memberPage.getByLabel('Share something with the community');
    await composer.click();
    expect(await memberPage.getByText('Pending approval').count()).toBe(1);
    const post = memberPage.getByRole('button', { name: 'Post', exact: true });
    expect(await post.isDisabled()).toBe(true);
    await composer.fill('Dad kept the WGN test pattern card for fifty years');
    await memberPage.getByRole('button', { name: 'YouTube' }).click();
    await memberPage.getByLabel('Media URL').fill('https://youtu.be/dQw4w9WgXcQ');
    await memberPage.getByLabel('Add a tag').fill('#TestPattern');
    await memberPage.keyboard.press('Enter');
    expect(await memberPage.getByRole('list', { name: 'Tags to add' }).textContent()).toContain('#testpattern');
    await composer.focus();
    await memberPage.keyboard.press('Control+Enter');
    const mine = memberPage.getByRole('article').filter({ hasText: 'test pattern card' });
    await mine.waitFor();
    expect(await mine.getByText('Pending').count()).toBe(1);
    expect(await mine.locator('iframe').getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    await screenshot(memberPage, 'feed-member-pending');

    await otherPage.waitForTimeout(500);
    expect((await postTexts(otherPage)).join()).not.toContain('test pattern card');

    await staffPage.goto('/admin');
    const queued = staffPage.getByRole('listitem').filter({ hasText: 'test pattern card' });
    await queued.waitFor();
    await screenshot(staffPage, 'admin-moderation');
    expect(await accessibilityViolations(staffPage)).toEqual([]);
    await queued.getByRole('button', { name: 'Approve' }).click();
    await staffPage.getByText('All posts have been reviewed!').waitFor();

    await otherPage.getByRole('article').filter({ hasText: 'test pattern card' }).waitFor();
    await expect.poll(() => mine.getByText('Pending').count()).toBe(0);
  });

  it('shows markup in a post as text', async () => {
    await staffPage.goto('/');
    const composer = staffPage.getByLabel('Share something with the community');
    await composer.click();
    expect(await staffPage.getByText('Will post immediately').count()).toBe(1);
    await composer.fill('<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>Radio days');
    await staffPage.getByRole('button', { name: 'Post', exact: true }).click();
    const card = otherPage.getByRole('article').filter({ hasText: 'Radio days' });
    await card.waitFor();
    expect(await card.textContent()).toContain('<script>window.__pwned=1</script>');
    expect(await otherPage.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await card.locator('img[src="x"]').count()).toBe(0);
  });

  it('toggles a like that survives a reload', async () => {
    const card = otherPage.getByRole('article').filter({ hasText: 'test pattern card' });
    await card.getByRole('button', { name: /Like · 0/ }).click();
    await card.getByRole('button', { name: /Like · 1/ }).waitFor();
    expect(await card.getByRole('button', { name: /Like/ }).getAttribute('aria-pressed')).toBe('true');
    await memberPage
      .getByRole('article')
      .filter({ hasText: 'test pattern card' })
      .getByRole('button', { name: /Like · 1/ })
      .waitFor();
    await otherPage.reload();
    await otherPage
      .getByRole('article')
      .filter({ hasText: 'test pattern card' })
      .getByRole('button', { name: /Like · 1/, pressed: true })
      .waitFor();
  });

  it('searches and filters', async () => {
    await otherPage.getByPlaceholder('Search posts, users, tags...').fill('radio DAYS');
    await expect.poll(async () => (await postTexts(otherPage)).length).toBe(1);
    await otherPage.getByPlaceholder('Search posts, users, tags...').fill('');
    await otherPage.getByRole('button', { name: /^#testpattern/ }).click();
    expect(await otherPage.getByPlaceholder('Search posts, users, tags...').inputValue()).toBe('#testpattern');
    await expect.poll(async () => (await postTexts(otherPage)).length).toBe(1);
    await otherPage.getByPlaceholder('Search posts, users, tags...').fill('');
    await otherPage.getByRole('button', { name: /^Following/ }).click();
    await expect.poll(async () => (await postTexts(otherPage)).join()).toContain('Radio days');
    expect((await postTexts(otherPage)).join()).not.toContain('test pattern card');
    await otherPage.getByRole('button', { name: /^Trending/ }).click();
    await otherPage.getByText('No posts match.').waitFor();
    await otherPage.getByRole('button', { name: /^All Posts/ }).click();
    await expect.poll(async () => (await postTexts(otherPage)).length).toBe(2);
    await screenshot(otherPage, 'feed');
    expect(await accessibilityViolations(otherPage)).toEqual([]);
  });

  it('keeps posts approved while a reader is scrolled down behind an "N new posts" pill that scrolls up to them; at the top they just show', async () => {
    // Enough posts that the first page scrolls and a second one waits behind "Load More Posts".
    for (let i = 1; i <= 24; i++) {
      const created = await staffPage.request.post('/api/posts', {
        data: { content: `Archive note ${i}: a station log from ${1940 + i}` },
      });
      expect(created.status()).toBe(201);
    }
    /** Another member's post, approved by staff: both through the API, while the reader only watches. */
    const approvedPost = async (content: string) => {
      const submitted = await memberPage.request.post('/api/posts', { data: { content } });
      expect(submitted.status()).toBe(201);
      const { id } = (await submitted.json()) as { id: string };
      expect((await staffPage.request.put(`/api/admin/posts/${id}/approve`, { data: {} })).status()).toBe(200);
    };

    const reader = await openNewsfeedAs(browser, site.url, person('Rita', 'Reader'));
    const articles = reader.getByRole('article');
    await expect.poll(() => articles.count()).toBe(20);
    // At once, not smoothly: the position read next is where the reader stays.
    const scrollDown = () => reader.evaluate(() => window.scrollTo({ top: 1500, behavior: 'instant' }));
    await scrollDown();
    const scrolledTo = await reader.evaluate(() => window.scrollY);
    expect(scrolledTo).toBe(1500);

    const pill = reader.getByRole('button', { name: /^\d+ new posts?$/ });
    await approvedPost('Live find one: a WLS jingle reel');
    await pill.waitFor();
    expect(await pill.textContent()).toBe('1 new post');
    await approvedPost('Live find two: a WGN-TV sign-off card');
    await expect.poll(() => pill.textContent()).toBe('2 new posts');
    // They wait behind the pill: nothing moved under the reader.
    expect(await articles.filter({ hasText: 'Live find' }).count()).toBe(0);
    expect(await reader.evaluate(() => window.scrollY)).toBe(scrolledTo);
    // Nor did the two posts the new ones pushed onto the next page drop off the bottom: the feed loads on to keep
    // every post it showed. Older posts loaded so are not new: they show at the bottom, and the pill still counts two.
    await articles.filter({ hasText: 'Archive note 1:' }).waitFor();
    expect(await articles.filter({ hasText: 'Archive note 5:' }).count()).toBe(1);
    await screenshot(reader, 'feed-new-posts-pill');
    expect(await pill.textContent()).toBe('2 new posts');

    await pill.click();
    await expect.poll(() => reader.evaluate(() => window.scrollY)).toBe(0);
    await expect
      .poll(async () => (await articles.allTextContents()).slice(0, 2).map((text) => text.match(/Live find \w+/)?.[0]))
      .toEqual(['Live find two', 'Live find one']);
    expect(await pill.count()).toBe(0);

    // At the top of the page a new post simply shows, first.
    await approvedPost('Live find three: an NBC chimes recording');
    await expect.poll(async () => (await articles.first().textContent()) ?? '').toContain('Live find three');
    expect(await pill.count()).toBe(0);

    // Back on the feed from another page, with its posts still cached: the same.
    await reader.getByRole('link', { name: 'Blog' }).click();
    await reader.waitForURL('**/blog');
    await reader.getByRole('link', { name: 'Newsfeed' }).click();
    await articles.filter({ hasText: 'Live find three' }).waitFor();
    await scrollDown();
    await approvedPost('Live find four: a Mutual network cue sheet');
    await pill.waitFor();
    expect(await pill.textContent()).toBe('1 new post');
    expect(await articles.filter({ hasText: 'Live find four' }).count()).toBe(0);
  });
});

describe('member management', () => {
  it('promotes a member, and signs out a suspended one', async () => {
    await staffPage.goto('/admin/users');
    const row = staffPage.getByRole('row').filter({ hasText: 'Otto Other' });
    await row.getByLabel('Promote Otto Other').selectOption('staff');
    await row.getByText('staff', { exact: true }).waitFor();
    await screenshot(staffPage, 'admin-users');

    const memberRow = staffPage.getByRole('row').filter({ hasText: 'Mary Member' });
    await memberRow.getByRole('button', { name: 'Suspend' }).click();
    await memberRow.getByText('Suspended').waitFor();
    await memberPage.reload();
    await memberPage.getByRole('link', { name: 'Join Community' }).waitFor();
  });
});
