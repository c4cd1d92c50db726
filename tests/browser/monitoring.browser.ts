import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, newContext, registerInBrowser, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;
const account = (name: string) => ({
  firstName: name,
  lastName: 'Watcher',
  email: `${name.toLowerCase()}-${Date.now()}@example.org`,
  password: 'correct horse battery',
});

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', ALERT_RESPONSE_P95_MS: '10000' }, (started, chromium) => {
  site = started;
  browser = chromium;
});

describe('monitoring page', () => {
  it('shows staff measured figures that move without a reload, and others Access Denied', async () => {
    const adminContext = await newContext(browser, site.url);
    const admin = await adminContext.newPage();
    await registerInBrowser(admin, account('Root'));
    await admin.goto('/monitoring');
    const activeUsers = admin.getByText('Active users').locator('xpath=following-sibling::p[1]');
    // The page may load before the admin's socket has connected: the next push (every 5 s) counts it.
    await expect.poll(() => activeUsers.textContent(), { timeout: 15_000 }).toBe('1');
    // Figures refresh by push every 5 s; a start-up moment (a burst of requests, a busy pool) may raise a passing alert.
    await expect.poll(() => admin.getByText('All systems normal.').count(), { timeout: 20_000 }).toBe(1);
    await screenshot(admin, 'monitoring');
    expect(await accessibilityViolations(admin)).toEqual([]);
    await admin.setViewportSize({ width: 390, height: 844 });
    await screenshot(admin, 'monitoring-phone');
    await admin.setViewportSize({ width: 1280, height: 800 });

    // The mail outbox tile: a guest's confirmation mail goes out, and the page shows it sent without a reload.
    const outbox = admin.getByText('Mail outbox').locator('xpath=..');
    await outbox.getByText('0 to send').waitFor();
    await outbox.getByText('0 sent in the last hour, 0 bounced').waitFor();
    const subscribed = await fetch(`${site.url}/api/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `tile-${Date.now()}@example.org`, subscriptionType: 'all', frequency: 'weekly' }),
    });
    expect(subscribed.status).toBe(202);
    await outbox.getByText('1 sent in the last hour, 0 bounced').waitFor({ timeout: 15_000 });

    const memberContext = await newContext(browser, site.url);
    const member = await memberContext.newPage();
    await registerInBrowser(member, account('Mem'));
    await expect.poll(() => activeUsers.textContent(), { timeout: 15_000 }).toBe('2');
    await member.goto('/monitoring');
    await member.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await memberContext.close();
    await adminContext.close();
  });
});
