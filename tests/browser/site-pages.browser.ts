/**
 * The public site's pages in a real browser (issue 18, items 4 and 9): every footer link leads to a real page,
 * the privacy notice is there before anyone is asked for an address, admins edit a page in Settings and
 * visitors see it, and /subscribe serves guests and members (a member's own address becomes their subscription).
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, newContext, person, registerInBrowser, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, (started, chromium) => {
  site = started;
  browser = chromium;
});

const FOOTER_PAGES = [
  ['About', 'About the community'],
  ['Contact', 'Contact us'],
  ['Privacy', 'Privacy notice'],
  ['Terms', 'Terms of use'],
  ['Community Guidelines', 'Community guidelines'],
  ['Help', 'Help'],
  ['Support', 'Support'],
  ['Subscribe', 'Get updates by e-mail'],
] as const;

describe('the public site’s pages', () => {
  it('leads every footer link to a real page with its heading, the current year and no accessibility failures, on a desktop and a phone', async () => {
    for (const size of [
      { width: 1366, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const context = await newContext(browser, site.url, size);
      const page = await context.newPage();
      await page.goto('/about');
      const footer = page.getByRole('contentinfo');
      await footer.getByText(`© ${new Date().getFullYear()} Broadcast History Community. All rights reserved.`).waitFor();
      for (const [link, heading] of FOOTER_PAGES) {
        await footer.getByRole('link', { name: link, exact: true }).click();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        expect(await page.getByText('Page not found').count()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
        expect(await accessibilityViolations(page), `${link} at ${size.width}px`).toEqual([]);
      }
      await page.goto('/privacy');
      await page.getByRole('heading', { level: 2, name: 'What we collect' }).waitFor();
      await screenshot(page, `site-pages-privacy-${size.width}`);
      await context.close();
    }
  });

  it('links the landing page to the privacy notice before it asks a visitor for an address', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('navigation', { name: 'About the site' }).getByRole('link', { name: 'Privacy' }).click();
    await page.getByRole('heading', { level: 1, name: 'Privacy notice' }).waitFor();
    await context.close();
  });

  it('lets an admin edit a page in Settings with a preview, and a visitor then reads it', async () => {
    const context = await newContext(browser, site.url);
    const admin = await context.newPage();
    await registerInBrowser(admin, person('Ada', 'Admin'));
    await admin.goto('/admin/settings');
    await admin.getByRole('heading', { name: 'Site pages' }).waitFor();
    await admin.getByLabel('Page', { exact: true }).selectOption('privacy');
    const form = admin.getByRole('form', { name: 'Edit Privacy notice' });
    await form.getByLabel('Title').fill('How we handle your information');
    await form
      .getByLabel('Text (Markdown)')
      .fill('## Short version\n\nWe keep **only** what the community needs. <script>window.__pwned = 1</script>');
    await form.getByRole('button', { name: 'Preview' }).click();
    const preview = form.getByRole('region', { name: 'Preview' });
    await preview.getByRole('heading', { level: 2, name: 'Short version' }).waitFor();
    expect(await preview.locator('strong').textContent()).toBe('only');
    await form.getByRole('button', { name: 'Save page' }).click();
    await admin.getByText('How we handle your information saved').waitFor();
    await screenshot(admin, 'site-pages-editor');
    expect(await accessibilityViolations(admin)).toEqual([]);

    const visitorContext = await newContext(browser, site.url);
    const visitor = await visitorContext.newPage();
    await visitor.goto('/privacy');
    await visitor.getByRole('heading', { level: 1, name: 'How we handle your information' }).waitFor();
    await visitor.getByText(/^Last updated /).waitFor();
    await visitor.getByText('We keep only what the community needs.').waitFor();
    expect(await visitor.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await visitorContext.close();
    await context.close();
  });

  it('subscribes a guest by a confirmation link, and gives a signed-in member their own subscription', async () => {
    const guestContext = await newContext(browser, site.url, { width: 390, height: 844 });
    const guest = await guestContext.newPage();
    await guest.goto('/subscribe');
    await guest.getByLabel('E-mail address').fill(`guest-${Date.now()}@example.org`);
    await guest.getByRole('button', { name: 'Subscribe' }).click();
    await guest.getByText('Check your inbox to confirm your subscription.').waitFor();
    await screenshot(guest, 'site-pages-subscribe-390');
    await guestContext.close();

    const context = await newContext(browser, site.url);
    const member = await context.newPage();
    const account = person('Mona', 'Member');
    await registerInBrowser(member, account);
    await member.goto('/subscribe');
    expect(await member.getByLabel('E-mail address').inputValue()).toBe(account.email);
    await member.getByLabel('Updates', { exact: true }).selectOption({ label: 'Blog Posts' });
    await member.getByRole('button', { name: 'Subscribe' }).click();
    await member.getByText('You are subscribed. Manage your e-mail in Subscription Settings.').waitFor();
    await member.goto('/subscription-settings');
    await member.getByRole('listitem', { name: 'Blog Posts' }).waitFor();
    await context.close();
  });
});
