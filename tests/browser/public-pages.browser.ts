/**
 * The public pages in a real browser (issue 20): a shared event or blog post link opens its own page for a
 * visitor, readable with JavaScript off (the server's HTML) and on (the same markup hydrated from the props the page
 * carries: the server's elements kept, no hydration error, links and the post's comments working); "Sign in to RSVP" signs in and comes back to the event, where the member answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { Browser as Client, registerMember } from '../support/http';
import { accessibilityViolations, newContext, person, publicPageHydrated, screenshot, siteInBrowser } from '../support/browser';
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
  it('are readable with JavaScript off: the server’s HTML carries the event and the post, and the form keeps its address', async () => {
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
    // The subscribe form sent before any code ran keeps what was typed: /subscribe fills its form with it.
    const form = page.getByRole('region', { name: 'Get updates by e-mail' });
    await form.getByLabel('E-mail address').fill('early@example.org');
    await form.getByLabel('How often').selectOption({ label: 'Daily digest' });
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL('**/subscribe?**');
    const sent = new URL(page.url());
    await context.close();
    const withCode = await newContext(browser, site.url);
    const again = await withCode.newPage();
    await again.goto(`${sent.pathname}${sent.search}`);
    const filled = again.getByRole('region', { name: 'Get updates by e-mail' });
    await expect.poll(() => filled.getByLabel('E-mail address').inputValue()).toBe('early@example.org');
    expect(await filled.getByLabel('How often').inputValue()).toBe('daily');
    expect(await filled.getByLabel('Updates').inputValue()).toBe('all');
    await withCode.close();
  });

  it('are hydrated as the server sent them: the same elements, no hydration error, on a desktop and a phone', {
    timeout: 240_000,
  }, async () => {
    for (const size of [
      { width: 1366, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const context = await newContext(browser, site.url, size);
      // Before any of the page's scripts runs (deferred modules run after "interactive"), keep the server's elements.
      await context.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState !== 'interactive') return;
          const root = document.getElementById('prerendered');
          Object.assign(window, { serverHeading: root?.querySelector('h1'), serverLinks: root ? [...root.querySelectorAll('a')] : [] });
        });
      });
      const page = await context.newPage();
      const errors = consoleErrors(page);
      for (const [path, heading] of [
        [`/events/${eventId}`, 'WAVE Alumni Reunion'],
        [`/blog/${postId}`, 'The Night the Tower Fell'],
        ['/', /kept by the people who lived it/u],
        ['/blog', 'Blog'],
      ] as const) {
        await page.goto(path);
        // The blog's pages hydrate at the reader's first move (client/main.tsx).
        await page.mouse.wheel(0, 1);
        // Hydrated: React has claimed the server's heading (its fiber is on the element), and drew nothing anew.
        await page.waitForFunction(() => {
          const h1 = document.querySelector('#prerendered h1');
          return h1 !== null && Object.keys(h1).some((key) => key.startsWith('__reactFiber'));
        });
        const kept = await page.evaluate(() => {
          const { serverHeading, serverLinks } = window as unknown as { serverHeading: Element; serverLinks: Element[] };
          return {
            heading: serverHeading.isConnected && serverHeading === document.querySelector('#prerendered h1'),
            links: serverLinks.length > 0 && serverLinks.every((link) => link.isConnected),
          };
        });
        expect(kept, path).toEqual({ heading: true, links: true });
        await page.locator('#prerendered').getByRole('heading', { level: 1, name: heading }).waitFor();
        // Nothing of the app: its root stays empty.
        expect(await page.locator('#root > *').count(), path).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${path} at ${size.width}px`).toBe(true);
        expect(await accessibilityViolations(page), `${path} at ${size.width}px`).toEqual([]);
        await screenshot(page, `public-${path.split('/')[1] || 'landing'}-${size.width}`);
      }
      // A hydration mismatch is reported as an error (client/public-page.tsx: onRecoverableError); there is none.
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('work after hydration: links lead on, the post’s comments load, the event names the reader’s own time', async () => {
    const context = await browser.newContext({ baseURL: site.url, timezoneId: 'Europe/Berlin' });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const hydrated = () => publicPageHydrated(page);
    await page.goto(`/events/${eventId}`);
    await hydrated();
    // The server wrote the site's zone; the browser adds the reader's (docs/domain/shell.md#public-pages).
    await page
      .locator('#prerendered time')
      .getByText(/your time, GMT\+1/u)
      .waitFor();
    await page.goto(`/blog/${postId}`);
    await hydrated();
    await page.getByRole('heading', { name: /^Comments · 0$/u }).waitFor();
    await page.getByRole('link', { name: 'Browse More Posts' }).click();
    await page.waitForURL('**/blog');
    await hydrated();
    await page.getByRole('link', { name: /Read full post.*The Night the Tower Fell/u }).click();
    await page.waitForURL(/\/blog\/[^/]+$/u);
    await page.getByRole('heading', { level: 1, name: 'The Night the Tower Fell' }).waitFor();
    await page.goto('/');
    await hydrated();
    // The subscribe form hydrated with the page works: its field takes typing.
    await page.getByLabel('E-mail address').fill('reader@example.org');
    expect(await page.getByLabel('E-mail address').inputValue()).toBe('reader@example.org');
    await page.getByRole('link', { name: 'Join Community' }).click();
    await page.waitForURL(/\/register$/u);
    await page.getByRole('heading', { name: 'Join the community' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sign a visitor in from an event and bring them back to RSVP', async () => {
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await page.goto(`/events/${eventId}`);
    await page.getByRole('link', { name: 'Sign in to RSVP' }).click();
    await page.waitForURL(/\/login\?redirect=/u);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`**/events/${eventId}`);
    // Signing in loads the app (the visitor's page had none of it): a busy machine may take a while.
    await page.getByRole('heading', { level: 1, name: 'WAVE Alumni Reunion' }).waitFor({ timeout: 30_000 });
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
