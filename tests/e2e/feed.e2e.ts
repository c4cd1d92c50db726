/**
 * The newsfeed and the admin dashboard in real browsers, several members at once:
 * moderation end to end with live updates, likes, search and filters, scripts shown
 * as text, promotion and suspension.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestSite, type TestSite } from '../support/site';
import { accessibilityViolations, launchChromium, openAs, person, screenshot } from '../support/browser';

let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
let staffPage: Page;
let memberPage: Page;
let otherPage: Page;

async function open(account: ReturnType<typeof person>) {
  const { context, page } = await openAs(browser, site.url, account);
  contexts.push(context);
  await page.getByRole('heading', { name: 'Broadcast History Newsfeed' }).waitFor();
  return page;
}

const postTexts = (page: Page) => page.getByRole('article').allTextContents();

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000' });
  browser = await launchChromium();
  staffPage = await open(person('Ada', 'Admin'));
  memberPage = await open(person('Mary', 'Member'));
  otherPage = await open(person('Otto', 'Other'));
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await site?.close();
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
    await memberPage.getByRole('article').filter({ hasText: 'test pattern card' }).getByRole('button', { name: /Like · 1/ }).waitFor();
    await otherPage.reload();
    await otherPage.getByRole('article').filter({ hasText: 'test pattern card' }).getByRole('button', { name: /Like · 1/, pressed: true }).waitFor();
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
    await memberPage.getByRole('button', { name: 'Join Community' }).waitFor();
  });
});
