/**
 * The Content-Security-Policy in a real browser: the site runs only its own script files, so nothing it
 * needs may be inline. Every page an admin can open, the sign-in pages and the embeds are visited, with a
 * YouTube post in the feed, and Chromium must report no refusal.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestSite } from '../support/site';
import { siteInBrowser, newContext, person, recordPolicyViolations, registerInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, (started, chromium) => {
  site = started;
  browser = chromium;
});

describe('the Content-Security-Policy', () => {
  it('refuses nothing the site uses, on every page an admin can open and on the embeds', async () => {
    const context = await newContext(browser, site.url);
    const violations = recordPolicyViolations(context);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The first account is the admin.
    await registerInBrowser(page, person('Ada', 'Admin'));
    const posted = await page.evaluate(async () => {
      const body = JSON.stringify({ content: 'A YouTube aircheck', mediaType: 'youtube', mediaUrl: 'https://youtu.be/dQw4w9WgXcQ' });
      return (await fetch('/api/posts', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status;
    });
    expect(posted).toBe(201);
    for (const path of [
      '/',
      '/blog',
      '/calendar',
      '/admin',
      '/events/manage',
      '/admin/widgets',
      '/monitoring',
      '/subscription-settings',
      '/mailbox',
      '/embed/feed',
      '/embed/calendar',
    ]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    // The theme script is a file of its own: a reload in the dark theme applies it before the first paint.
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(violations).toEqual([]);
    await context.close();
  });
});
