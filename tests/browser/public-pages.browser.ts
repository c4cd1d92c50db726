/**
 * The public pages in a real browser (issue 20): a shared event or blog post link opens its own page for a
 * visitor, readable with JavaScript off (the server's HTML) and on (the app takes over with no console error and no
 * jump to a spinner); "Sign in to RSVP" signs in and comes back to the event, where the member answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { Browser as Client, registerMember } from '../support/http';
import { accessibilityViolations, newContext, person, screenshot, siteInBrowser } from '../support/browser';
import { createEvent } from '../support/content';

let site: TestSite;
let browser: Browser;
let postId: string;
let eventId: string;
const member = person('Mona', 'Member');

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, (started, chromium) => {
  site = started;
  browser = chromium;
});

beforeAll(async () => {
  const admin: Client = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  await registerMember(site.url, member);
  postId = (
    await admin.post('/api/blog', {
      title: 'The Night the Tower Fell',
      isPublished: true,
      content: '<p>Storm winds took the WHAS tower down in 1974.</p><p>Engineers had it back on the air by dawn.</p>',
    })
  ).body.id;
  const start = new Date(Date.now() + 10 * 24 * 3600 * 1000);
  start.setUTCHours(18, 0, 0, 0);
  eventId = await createEvent(admin, {
    title: 'WAVE Alumni Reunion',
    eventType: 'reunion',
    location: 'Louisville Palace',
    description: 'Bring your old station badges.',
    startDate: start.toISOString(),
    endDate: new Date(start.getTime() + 3 * 3600 * 1000).toISOString(),
    maxAttendees: 40,
  });
});

/** Console errors of a page, from its first request on. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

describe('public pages', () => {
  it('are readable with JavaScript off: the server’s HTML carries the event and the post', async () => {
    const context = await browser.newContext({ baseURL: site.url, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/events/${eventId}`);
    await page.getByRole('heading', { level: 1, name: 'WAVE Alumni Reunion' }).waitFor();
    await page.getByText('Louisville Palace').waitFor();
    await page.getByText('0 of 40 places taken').waitFor();
    expect(await page.getByRole('link', { name: 'Sign in to RSVP' }).getAttribute('href')).toBe(`/login?redirect=%2Fevents%2F${eventId}`);
    await page.goto(`/blog/${postId}`);
    await page.getByRole('heading', { level: 1, name: 'The Night the Tower Fell' }).waitFor();
    await page.getByText('Engineers had it back on the air by dawn.').waitFor();
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: /kept by the people who lived it/u }).waitFor();
    await context.close();
  });

  it('hand over to the app with no console error and no accessibility failure, on a desktop and a phone', async () => {
    for (const size of [
      { width: 1366, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const context = await newContext(browser, site.url, size);
      const page = await context.newPage();
      const errors = consoleErrors(page);
      for (const [path, heading] of [
        [`/events/${eventId}`, 'WAVE Alumni Reunion'],
        [`/blog/${postId}`, 'The Night the Tower Fell'],
        ['/', /kept by the people who lived it/u],
      ] as const) {
        await page.goto(path);
        // The app has taken over: the server's copy is gone and the app's page shows the same heading.
        await page.waitForFunction(() => !document.getElementById('prerendered'));
        await page.locator('#root').getByRole('heading', { level: 1, name: heading }).waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${path} at ${size.width}px`).toBe(true);
        expect(await accessibilityViolations(page), `${path} at ${size.width}px`).toEqual([]);
        await screenshot(page, `public-${path.split('/')[1] || 'landing'}-${size.width}`);
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('sign a visitor in from an event and bring them back to RSVP', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await page.goto(`/events/${eventId}`);
    await page.locator('#root').getByRole('link', { name: 'Sign in to RSVP' }).click();
    await page.waitForURL(/\/login\?redirect=/u);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`**/events/${eventId}`);
    await page.getByRole('heading', { level: 1, name: 'WAVE Alumni Reunion' }).waitFor();
    await page.getByRole('group', { name: 'Your RSVP' }).getByRole('button', { name: 'Attending', exact: true }).click();
    await page.getByText('1 attending of 40').waitFor();
    await screenshot(page, 'public-event-member');
    await context.close();
  });

  it('refuse a way off the site after sign-in', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await page.goto('/login?redirect=//evil.example.org');
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${site.url}/`);
    await context.close();
  });
});
