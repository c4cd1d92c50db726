/**
 * The web client's shell in a real browser against a whole running site:
 * landing, registration, roles in the sidebar, theme, sidebar state, keyboard,
 * the phone drawer, the not-found page and accessibility.
 */
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, newContext, registerInBrowser, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;

const account = (name: string) => ({
  firstName: name,
  lastName: 'Tester',
  email: `${name.toLowerCase()}-${Date.now()}@example.org`,
  password: 'correct horse battery',
});

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, (started, chromium) => {
  site = started;
  browser = chromium;
});

describe('the web client shell', () => {
  it('shows the landing page to visitors: Join Community leads to registration, Sign In to sign-in', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto('/');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/history of broadcasting/i);
    // Asking who is signed in is answered for a visitor too: no 401 in the console.
    await page.waitForLoadState('networkidle');
    expect(consoleErrors).toEqual([]);
    for (const feature of ['Rich media posts', 'Role-based community', 'Content moderation', 'Engagement tracking']) {
      expect(await page.getByRole('heading', { name: feature }).count()).toBe(1);
    }
    await screenshot(page, 'shell-landing');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Join Community' }).click();
    await page.waitForURL(/\/register$/);
    await page.getByRole('heading', { name: 'Join the community' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goBack();
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await page.waitForURL(/\/login$/);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await context.close();
  });

  it('makes the first account the admin, with the Administration group, and keeps the theme across reloads', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await registerInBrowser(page, account('Ada'));
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Newsfeed' }).waitFor();
    for (const title of ['Dashboard', 'Event Management', 'User Management', 'Monitoring', 'Settings']) {
      expect(await nav.getByRole('link', { name: title, exact: true }).count()).toBe(1);
    }
    expect(await nav.getByRole('link', { name: 'Newsfeed' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByText('Premium Community').count()).toBeGreaterThan(0);
    expect(await page.getByText('Community Stats', { exact: true }).count()).toBe(1);
    await screenshot(page, 'shell-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    await nav.getByRole('link', { name: 'Newsfeed' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.classList.contains('dark'), localStorage.getItem('theme')])).toEqual([
      true,
      'dark',
    ]);
    await screenshot(page, 'shell-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Switch to light theme' }).click();

    await nav.getByRole('link', { name: 'Blog' }).click();
    await page.waitForURL(/\/blog$/);
    expect(await nav.getByRole('link', { name: 'Newsfeed' }).getAttribute('aria-current')).toBeNull();
    expect(await nav.getByRole('link', { name: 'Blog' }).getAttribute('aria-current')).toBe('page');
    await context.close();
  });

  it('does not show the Administration group to a member, nor the event management page', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await registerInBrowser(page, account('Mel'));
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Newsfeed' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    expect(await page.getByText('Administration').count()).toBe(0);
    await page.goto('/events/manage');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await context.close();
  });

  it('collapses the sidebar with its button or Ctrl+B, and remembers it in the sidebar_state cookie', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await registerInBrowser(page, account('Col'));
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await sidebar.waitFor();
    expect(await sidebar.getAttribute('data-state')).toBe('expanded');
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('collapsed');
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    expect(Math.round(cookie!.expires - Date.now() / 1000)).toBeGreaterThan(604_000);
    await page.reload();
    await sidebar.waitFor();
    expect(await sidebar.getAttribute('data-state')).toBe('collapsed');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('expanded');
    await context.close();
  });

  it('reaches every sidebar control by keyboard, with a visible focus ring', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await registerInBrowser(page, account('Kay'));
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const reached = new Set<string>();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        const ring = style.outlineStyle !== 'none' || style.boxShadow !== 'none';
        return { name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '', ring };
      });
      if (focused) {
        expect(focused.ring, `focus ring on ${focused.name}`).toBe(true);
        reached.add(focused.name);
      }
    }
    for (const name of ['Newsfeed', 'Calendar', 'Subscription Settings', 'Sign out'])
      expect([...reached].some((r) => r.startsWith(name))).toBe(true);
    await context.close();
  });

  it('turns the sidebar into a drawer on a phone', async () => {
    const context = await newContext(browser, site.url, { width: 375, height: 740 });
    const page = await context.newPage();
    await registerInBrowser(page, account('Pho'));
    await page.getByRole('button', { name: 'Toggle sidebar' }).waitFor();
    expect(await page.getByRole('complementary', { name: 'Sidebar' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await drawer.waitFor();
    await screenshot(page, 'shell-phone-drawer');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await drawer.getByRole('link', { name: 'Calendar' }).click();
    await page.waitForURL(/\/calendar$/);
    await drawer.waitFor({ state: 'detached' });
    await context.close();
  });

  it('shows a not-found page for unknown paths, and the placeholders say coming soon', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await registerInBrowser(page, account('Nat'));
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.goto('/trending');
    await page.getByText('Coming soon').waitFor();
    await page.goto('/admin-webflow');
    await page.getByRole('navigation', { name: 'Site' }).waitFor();
    expect(await page.getByText(`© ${new Date().getFullYear()} Broadcast History Community`).count()).toBe(1);
    await context.close();
  });

  it('refreshes the pending-events badge when the server pushes pending:changed, without polling', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await page.goto('/login');
    const admin = await site.services.store.collection('members').findOne({ role: 'admin' });
    const credentials = await site.services.store.collection('member_credentials').findOne({ _id: admin!._id });
    await page.getByLabel('Email').fill(String(credentials!.email));
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: /Event Management/ }).waitFor();
    const statsRequests: number[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/admin/events/stats') statsRequests.push(Date.now());
    });
    await page.waitForTimeout(1500);
    expect(statsRequests).toEqual([]);
    const refetched = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/admin/events/stats');
    site.services.publish({ message: 'pending:changed', rooms: ['staff'], payload: { events: 1, posts: 0 } });
    await refetched;
    await context.close();
  });

  it('signs out back to the landing page', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await registerInBrowser(page, account('Out'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Join Community' }).waitFor();
    await page.reload();
    await page.getByRole('link', { name: 'Join Community' }).waitFor();
    await context.close();
  });
});
