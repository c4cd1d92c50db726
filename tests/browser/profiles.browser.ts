/**
 * Profile pages and the staff's member search in a real browser: an author's name in the feed leads to their
 * profile; the admin finds members on a phone, as cards with their actions.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, newContext, openAs, person, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;
let adminPage: Page;
let memberPage: Page;
let memberId: string;
const admin = person('Ada', 'Admin');
const member = person('Mary', 'Member');

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  adminPage = (await openAs(browser, site.url, admin, '/')).page;
  memberPage = (await openAs(browser, site.url, member, '/')).page;
  memberId = ((await (await memberPage.request.get('/api/auth/user')).json()) as { id: string }).id;
  expect(
    (
      await memberPage.request.patch('/api/me', {
        data: { bio: 'Third-generation listener from Story County. I collect station logs and farm-radio scripts.' },
      })
    ).status(),
  ).toBe(200);
  const submitted = await memberPage.request.post('/api/posts', {
    data: { content: 'My grandfather read the farm report on WHO every morning at six.' },
  });
  const { id } = (await submitted.json()) as { id: string };
  expect((await adminPage.request.put(`/api/admin/posts/${id}/approve`, { data: {} })).status()).toBe(200);
  const startsAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const event = await memberPage.request.post('/api/events', {
    data: { title: 'Farm radio memories evening', location: 'Ames public library', startDate: startsAt, endDate: startsAt },
  });
  const eventId = ((await event.json()) as { id: string }).id;
  expect((await adminPage.request.put(`/api/admin/events/${eventId}/approve`, { data: {} })).status()).toBe(200);
});

async function expectProfileOf(page: Page, name: string) {
  await page.getByRole('heading', { level: 1, name }).waitFor();
  expect(await page.getByText(/^Joined \w+ \d{4}$/).count()).toBe(1);
}

describe('profile pages', () => {
  it('opens the author’s profile from their name in the feed', async () => {
    await adminPage.goto('/');
    const post = adminPage.getByRole('article', { name: 'Post by Mary Member' });
    await post.getByRole('link', { name: 'Mary Member' }).click();
    await adminPage.waitForURL(`**/members/${memberId}`);
    await expectProfileOf(adminPage, 'Mary Member');
    await adminPage.getByText('Third-generation listener from Story County.', { exact: false }).waitFor();
    const posts = adminPage.getByRole('list', { name: 'Posts by Mary Member' });
    expect(await posts.textContent()).toContain('farm report on WHO');
    expect(await adminPage.getByRole('list', { name: 'Events organised by Mary Member' }).textContent()).toContain(
      'Farm radio memories evening',
    );
    expect(await adminPage.getByText(member.email).count()).toBe(0);
    expect(await accessibilityViolations(adminPage)).toEqual([]);
    await screenshot(adminPage, 'profile-admin-viewing-member-desktop');

    // A post approved while the page is open joins it by push, without a reload.
    const submitted = await memberPage.request.post('/api/posts', {
      data: { content: 'The station’s first remote broadcast came from the state fair.' },
    });
    const { id } = (await submitted.json()) as { id: string };
    expect((await adminPage.request.put(`/api/admin/posts/${id}/approve`, { data: {} })).status()).toBe(200);
    await posts.getByText(/first remote broadcast/).waitFor();
  });

  it('shows a member a profile with nothing posted yet, and one that does not exist, on a phone', async () => {
    const context = await newContext(browser, site.url, { width: 390, height: 844 });
    const page = await context.newPage();
    // The member's session, in a phone-sized window.
    await context.addCookies((await memberPage.context().cookies()).map((cookie) => ({ ...cookie })));
    const adminId = ((await (await adminPage.request.get('/api/auth/user')).json()) as { id: string }).id;
    await page.goto(`/members/${adminId}`);
    await expectProfileOf(page, 'Ada Admin');
    await page.getByText('No posts yet').waitFor();
    expect(await page.getByRole('link', { name: 'Edit your profile' }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'profile-member-viewing-admin-390');
    await page.goto(`/members/${memberId}`);
    await expectProfileOf(page, 'Mary Member');
    await page.getByRole('link', { name: 'Edit your profile' }).waitFor();
    await screenshot(page, 'profile-member-own-390');
    await page.goto('/members/00000000-0000-4000-8000-000000000000');
    await page.getByRole('heading', { name: 'Member not found' }).waitFor();
    await context.close();
  });
});

describe('finding members on the dashboard', () => {
  it('lets the admin search and filter members on a 390 px screen, as cards with their actions', async () => {
    const context = await newContext(browser, site.url, { width: 390, height: 844 });
    const page = await context.newPage();
    await context.addCookies(await adminPage.context().cookies());
    await page.goto('/admin/users');
    const cards = page.getByRole('list', { name: 'Members' });
    await cards.waitFor();
    expect(await page.locator('table').count()).toBe(0);
    await page.getByLabel('Search members').fill('MARY');
    await expect.poll(() => cards.getByRole('listitem').count()).toBe(1);
    const card = cards.getByRole('listitem').first();
    expect(await card.textContent()).toContain(member.email);
    // The card's actions, by keyboard.
    await card.getByLabel('Promote Mary Member').focus();
    expect(await card.getByRole('button', { name: 'Suspend' }).isVisible()).toBe(true);
    await screenshot(page, 'admin-users-search-390');

    await page.getByLabel('Role').selectOption('staff');
    await page.getByText('No members match').waitFor();
    await screenshot(page, 'admin-users-no-match-390');
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await expect.poll(() => cards.getByRole('listitem').count()).toBe(2);
    expect(await page.getByLabel('Search members').inputValue()).toBe('');
    await page.getByLabel('Search members').fill('mary');
    await page.getByLabel('Role').selectOption('member');
    await expect.poll(() => cards.getByRole('listitem').count()).toBe(1);

    // Suspending from the card, by keyboard; the Account filter then finds them.
    // Focus and key in one step: a card drawn again between a focus() and a page-level key press would lose the press.
    await card.getByRole('button', { name: 'Suspend' }).press('Enter');
    await card.getByRole('button', { name: 'Unsuspend' }).waitFor();
    await page.getByLabel('Search members').fill('');
    await page.getByLabel('Role').selectOption('');
    await page.getByLabel('Account').selectOption('true');
    await expect.poll(async () => (await cards.getByRole('listitem').allTextContents()).join('|')).toContain('Mary Member');
    expect(await cards.getByRole('listitem').count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    await context.close();
  });

  it('shows the wide table with the search on a desktop, names leading to profiles', async () => {
    await adminPage.goto('/admin/users');
    await adminPage.locator('table').waitFor();
    await adminPage.getByLabel('Search members').fill('ada');
    await expect.poll(() => adminPage.locator('tbody tr').count()).toBe(1);
    await screenshot(adminPage, 'admin-users-search-desktop');
    await adminPage.locator('tbody').getByRole('link', { name: 'Ada Admin' }).click();
    await expectProfileOf(adminPage, 'Ada Admin');
  });
});
