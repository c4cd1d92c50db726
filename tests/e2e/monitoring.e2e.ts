import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestSite, type TestSite } from '../support/site';
import { accessibilityViolations, launchChromium, newContext, registerInBrowser, screenshot } from '../support/browser';

let site: TestSite;
let browser: Browser;
const account = (name: string) => ({ firstName: name, lastName: 'Watcher', email: `${name.toLowerCase()}-${Date.now()}@example.org`, password: 'correct horse battery' });

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', ALERT_RESPONSE_P95_MS: '10000' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('monitoring page', () => {
  it('shows staff measured figures that move without a reload, and others Access Denied', async () => {
    const adminContext = await newContext(browser, site.url);
    const admin = await adminContext.newPage();
    await registerInBrowser(admin, account('Root'));
    await admin.goto('/monitoring');
    const activeUsers = admin.getByText('Active users').locator('xpath=following-sibling::p[1]');
    await expect.poll(() => activeUsers.textContent()).toBe('1');
    // Figures refresh by push every 5 s; a start-up moment (a burst of requests, a busy pool) may raise a passing alert.
    await expect.poll(() => admin.getByText('All systems normal.').count(), { timeout: 20_000 }).toBe(1);
    await screenshot(admin, 'monitoring');
    expect(await accessibilityViolations(admin)).toEqual([]);

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
