/**
 * A newcomer's first hour (issue 18): the rough edges a new member, staff and an admin met first, each shown
 * in a real browser against a whole running site: sign-up after a refusal, every sidebar entry in reach at
 * 1366×768 and in the phone drawer, one highlighted entry, names that wrap, and member cards on a phone.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, followRegistrationLink, newContext, person, screenshot, siteInBrowser } from '../support/browser';
import { Browser as HttpClient, registerMember } from '../support/http';

let site: TestSite;
let browser: Browser;
let admin: Page;
const adminAccount = person('Dorothy', 'Kilgallen-Whitmore');

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, (started, chromium) => {
  site = started;
  browser = chromium;
});

/** Every entry of the sidebar's navigation that the page shows, with whether it lies wholly inside the visible sidebar and window. */
function sidebarEntries(page: Page) {
  return page.evaluate(() => {
    const nav = document.querySelector('nav[aria-label="Main"]')!;
    const scroller = nav.parentElement!.getBoundingClientRect();
    return [...nav.querySelectorAll('a')]
      .filter((link) => link.checkVisibility())
      .map((link) => {
        const box = link.getBoundingClientRect();
        return {
          name: link.textContent!.trim(),
          inView: box.height > 0 && box.top >= scroller.top - 1 && box.bottom <= Math.min(scroller.bottom, innerHeight) + 1,
        };
      });
  });
}

/** Whether an element shows all of its text, neither cut off with an ellipsis nor clipped. */
const showsWholly = (page: Page, text: string) =>
  page
    .getByText(text, { exact: true })
    .first()
    .evaluate((element) => element.scrollWidth <= element.clientWidth && getComputedStyle(element).textOverflow !== 'ellipsis');

describe("a newcomer's first hour", () => {
  it('creates the account once a refused field is corrected and its mailed link is followed, and says what was wrong once', async () => {
    const context = await newContext(browser, site.url, { width: 1366, height: 768 });
    admin = await context.newPage();
    await admin.goto('/register');
    await admin.getByLabel('First name').fill(adminAccount.firstName);
    await admin.getByLabel('Last name').fill(adminAccount.lastName);
    await admin.getByLabel('Email').fill(adminAccount.email);
    await admin.getByLabel('Password').fill('too short');
    await admin.getByRole('button', { name: 'Create account' }).click();
    const refusal = admin.getByText('Password must be at least 10 characters');
    await refusal.waitFor();
    expect(await refusal.count()).toBe(1);
    expect(await admin.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');

    await admin.getByLabel('Password').fill(adminAccount.password);
    expect(await refusal.count()).toBe(0);
    await admin.getByRole('button', { name: 'Create account' }).click();
    // The answer is the same for every address: check your mail. The mailed link finishes signing up and signs in.
    await admin.getByRole('heading', { name: 'Check your mail' }).waitFor();
    await admin.getByRole('status').getByText(adminAccount.email).waitFor();
    expect(await accessibilityViolations(admin)).toEqual([]);
    await screenshot(admin, 'first-hour-check-your-mail');
    expect(new URL(admin.url()).pathname).toBe('/register');
    await followRegistrationLink(admin, adminAccount.email);
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Newsfeed' }).waitFor();
  });

  it('shows every entry an admin has at 1366×768 without scrolling, and the whole product and member names', async () => {
    await admin.getByRole('link', { name: 'Mailbox' }).waitFor();
    await screenshot(admin, 'first-hour-sidebar-1366x768');
    const entries = await sidebarEntries(admin);
    expect(entries.map((entry) => entry.name)).toEqual(
      expect.arrayContaining([
        'Newsfeed',
        'Subscription Settings',
        'Dashboard',
        'Event Management',
        'User Management',
        'Monitoring',
        'Settings',
        'Mailbox',
      ]),
    );
    expect(entries.length).toBe(14);
    expect(entries.filter((entry) => !entry.inView)).toEqual([]);
    expect(await showsWholly(admin, 'Broadcast History')).toBe(true);
    expect(await showsWholly(admin, 'Dorothy Kilgallen-Whitmore')).toBe(true);
  });

  it('lights one entry for a page, and marks avatars with a dot only for being online', async () => {
    await admin.goto('/admin/users');
    const nav = admin.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'User Management' }).waitFor();
    const current = nav.locator('a[aria-current="page"]');
    await expect.poll(() => current.allTextContents()).toEqual(['User Management']);
    // The sidebar's own avatar is the admin's: the role is the badge beside the name, not a coloured dot.
    const footerAvatarMarks = await admin
      .locator('aside footer')
      .first()
      .evaluate((footer) => footer.querySelectorAll('span.relative > span.absolute').length);
    expect(footerAvatarMarks).toBe(0);
  });

  it('folds the sidebar groups in the phone drawer, reaches every admin entry, and shows members as cards', async () => {
    for (const name of ['Margaret', 'Walter']) await registerMember(site.url, { firstName: name, lastName: 'Broadcaster-Longname' });
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.goto('/');
    await admin.getByRole('button', { name: 'Toggle sidebar' }).click();
    const drawer = admin.getByRole('dialog', { name: 'Navigation' });
    const administration = drawer.getByRole('button', { name: 'Administration' });
    expect(await administration.getAttribute('aria-expanded')).toBe('false');
    await administration.click();
    expect(await administration.getAttribute('aria-expanded')).toBe('true');
    await screenshot(admin, 'first-hour-drawer-390');
    const entries = await sidebarEntries(admin);
    expect(entries.length).toBe(14);
    expect(entries.filter((entry) => !entry.inView)).toEqual([]);
    await drawer.getByRole('link', { name: 'User Management' }).click();
    await drawer.waitFor({ state: 'detached' });

    const cards = admin.getByRole('list', { name: 'Members' }).getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(3);
    const offScreen = await admin.evaluate(() =>
      [...document.querySelectorAll('main button, main select')]
        .filter((control) => control.getBoundingClientRect().right > innerWidth)
        .map((control) => control.textContent),
    );
    expect(offScreen).toEqual([]);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    await admin.getByRole('button', { name: 'Suspend' }).first().click();
    await admin
      .getByText(/is suspended/)
      .first()
      .waitFor();
    await screenshot(admin, 'first-hour-members-390');
  });

  it('counts posts one way on the sidebar, the dashboard and monitoring, and shows no mail waiting when the outbox is empty', async () => {
    const staffApi = new HttpClient(site.url);
    expect((await staffApi.post('/api/auth/login', { email: adminAccount.email, password: adminAccount.password })).status).toBe(200);
    const { browser: member } = await registerMember(site.url, { firstName: 'Irene', lastName: 'Poster' });
    const submitted = [];
    for (const content of ['The first remote broadcast from the state fair', 'A post the moderators will turn down']) {
      const response = await member.post('/api/posts', { content });
      expect(response.status).toBe(201);
      submitted.push(response.body.id as string);
    }
    expect((await staffApi.put(`/api/admin/posts/${submitted[0]}/approve`)).status).toBe(200);
    expect((await staffApi.put(`/api/admin/posts/${submitted[1]}/reject`, { reason: 'Off topic' })).status).toBe(200);
    expect((await staffApi.post('/api/posts', { content: 'Welcome to the community' })).status).toBe(201);

    await admin.setViewportSize({ width: 1366, height: 900 });
    const tile = (label: string) => admin.getByText(label, { exact: true }).locator('xpath=following-sibling::p[1]');
    await admin.goto('/admin');
    await expect.poll(() => tile('Total Posts').textContent()).toBe('2');
    await expect
      .poll(() =>
        admin.getByRole('complementary', { name: 'Sidebar' }).getByText('Total Posts').locator('xpath=following-sibling::dd').textContent(),
      )
      .toBe('2');
    await admin.goto('/monitoring');
    await expect.poll(() => tile('Total posts').textContent()).toBe('2');
    // The digests' schedule holds a delayed job each; that is not mail waiting to be sent.
    expect(await tile('Mail outbox').textContent()).toBe('0 to send');
    expect(await tile('Background jobs').textContent()).toBe('0 waiting');
    await screenshot(admin, 'first-hour-monitoring');
  });
});
