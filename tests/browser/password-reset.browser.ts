/**
 * Forgot password, end to end in Chromium: "Forgot your password?" on the sign-in page, the neutral "check your
 * mail", the mail caught by the development sink and opened from the admin's mailbox ("Follow this link"), the new
 * password (refused when too short, shown on demand), every session ended, signing in with it, and the spent link
 * that offers a new one. Keyboard only where a person would type; screenshots at 1366 and 390 px.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { Browser as HttpBrowser, registerMember } from '../support/http';
import { accessibilityViolations, newContext, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_MAIL_LINKS_MAX: '1000' }, (started, chromium) => {
  site = started;
  browser = chromium;
});

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Screenshots of the page at 1366 and 390 px, and nothing wider than the phone's screen. */
async function atBothWidths(page: Page, name: string) {
  await page.setViewportSize(DESKTOP);
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  // Once the layout has followed the new width.
  await page.waitForFunction((width) => document.documentElement.scrollWidth <= width, PHONE.width, { timeout: 5_000 });
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

describe('forgot password', () => {
  it('goes from the sign-in page to a new password by the mailed link, and signs in with it', async () => {
    const admin = await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' });
    const { account } = await registerMember(site.url, { firstName: 'Rosa', lastName: 'Reset', email: `rosa-${Date.now()}@example.org` });
    // Signed in on another device, which the new password signs out.
    const phone = new HttpBrowser(site.url);
    expect((await phone.post('/api/auth/login', { email: account.email, password: account.password })).status).toBe(200);

    const context = await newContext(browser, site.url, DESKTOP);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // From the password field, the next stop is the link.
    await page.getByLabel('Password').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Forgot your password?');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/forgot-password');
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await atBothWidths(page, 'forgot-password');

    await page.getByLabel('Email').fill(account.email);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    await page.getByRole('status').getByText(account.email).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await atBothWidths(page, 'forgot-password-sent');

    // The admin opens the mail in the development mailbox and follows its link: the real one, masked where shown.
    const mail = await site.services.mailbox.waitFor((m) => m.to.includes(account.email) && /\/reset-password\//.test(m.text));
    const token = mail.text.match(/\/reset-password\/([\w-]+)/)![1]!;
    const adminContext = await newContext(browser, site.url, DESKTOP);
    const adminPage = await adminContext.newPage();
    await adminPage.goto('/login');
    await adminPage.getByLabel('Email').fill(admin.account.email);
    await adminPage.getByLabel('Password').fill(admin.account.password);
    await adminPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await adminPage.waitForURL((url) => url.pathname === '/');
    await adminPage.goto('/mailbox');
    await adminPage
      .getByRole('list', { name: 'Captured mail' })
      .getByRole('button', { name: /Choose a new password/ })
      .first()
      .click();
    const links = adminPage.getByRole('region', { name: 'Links in this message' });
    await links.getByText('/reset-password/••••••').waitFor();
    expect(await adminPage.content()).not.toContain(token);
    await adminPage.frameLocator('iframe[title="Message as HTML"]').getByRole('link', { name: 'Choose a new password' }).waitFor();
    await atBothWidths(adminPage, 'mailbox-follow-link');
    await links.getByRole('link', { name: 'Follow this link' }).click();
    await adminPage.waitForURL(`**/reset-password/${token}`);
    await adminPage.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await adminContext.close();

    // The member opens the same link.
    await page.goto(`/reset-password/${token}`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    const field = page.getByLabel('New password');
    await field.fill('short');
    await page.keyboard.press('Enter');
    await page.getByText('Password must be at least 10 characters').waitFor();
    // Shown on demand, by keyboard.
    await field.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await field.getAttribute('type')).toBe('text');
    await field.fill('a fresh winter passphrase');
    expect(await accessibilityViolations(page)).toEqual([]);
    await atBothWidths(page, 'reset-password');
    await field.press('Enter');

    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('reset') === 'done');
    await page.getByRole('status').getByText('Your password was changed').waitFor();
    await atBothWidths(page, 'reset-password-done');
    expect((await phone.get('/api/auth/user')).status).toBe(401);

    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('a fresh winter passphrase');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: /^Your account: Rosa Reset\b/ }).waitFor();

    // The link worked once: opened again, it says so and offers a new one.
    await page.goto(`/reset-password/${token}`);
    await page.getByLabel('New password').fill('another passphrase here');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    await page
      .getByRole('alert')
      .getByText(/expired or was already used/)
      .waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await atBothWidths(page, 'reset-password-spent');
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await context.close();
  }, 120_000);
});
