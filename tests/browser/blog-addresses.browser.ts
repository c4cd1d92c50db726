/**
 * Blog addresses and scheduling in a real browser (docs/domain/blog.md#addresses, #scheduling): staff give a post
 * its slug and a time to be published in the site's time zone, and see it listed as scheduled; a visitor reads a
 * post at /blog/{slug}, and its id's address leads there. Photographed at 1366 and 390 px.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { registerMember } from '../support/http';
import { accessibilityViolations, newContext, openAs, person, screenshot, siteInBrowser } from '../support/browser';

const TIME_ZONE = 'America/Chicago';
let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
let staff: Page;

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', TIME_ZONE }, async (started, chromium) => {
  site = started;
  browser = chromium;
  const admin = (await registerMember(site.url)).browser;
  const opened = await openAs(browser, site.url, person('Edith', 'Editor'));
  contexts.push(opened.context);
  staff = opened.page;
  const { id } = await staff.evaluate(() => fetch('/api/auth/user').then((response) => response.json() as Promise<{ id: string }>));
  expect((await admin.put(`/api/admin/users/${id}/role`, { role: 'staff' })).status).toBe(200);
});

const dialog = () => staff.getByRole('dialog');
/** Takes a toast away before a photograph, so that it hides nothing. */
async function dismissToasts() {
  for (const button of await staff.getByRole('button', { name: 'Dismiss notification' }).all()) await button.click();
}
/** Tomorrow at 09:30 in the site's time zone, as a datetime-local field takes it, and the instant it means. */
function tomorrowMorning() {
  const day = new Date(Date.now() + 36 * 3600 * 1000).toISOString().slice(0, 10);
  const local = `${day}T09:30`;
  const zoned = new Date(`${local}:00Z`);
  const offsetHours = Number(
    new Intl.DateTimeFormat('en-US', { timeZone: TIME_ZONE, timeZoneName: 'shortOffset' })
      .formatToParts(zoned)
      .find((part) => part.type === 'timeZoneName')!
      .value.replace('GMT', '') || 0,
  );
  return { local, instant: new Date(zoned.getTime() - offsetHours * 3600 * 1000).toISOString() };
}

describe('blog addresses and scheduling', () => {
  it('staff edit a slug and schedule a post in the site’s time zone; the list says when it goes out', async () => {
    await staff.setViewportSize({ width: 1366, height: 900 });
    await staff.goto('/admin/blog');
    await staff.getByRole('button', { name: 'New Blog Post' }).click();
    await dialog().getByLabel('Title').fill('Tower Lights at Dusk');
    expect(await dialog().getByLabel('Slug').getAttribute('placeholder')).toBe('tower-lights-at-dusk');
    await dialog().getByLabel('Content').fill('The red lights came on one by one.');
    await dialog().getByRole('button', { name: 'Create Post' }).click();
    await staff.getByText('Blog post created successfully').waitFor();
    await dismissToasts();
    const item = staff.getByRole('listitem', { name: 'Tower Lights at Dusk' });
    await item.getByText('/blog/tower-lights-at-dusk').waitFor();

    await item.getByRole('button', { name: 'Edit' }).click();
    const slug = dialog().getByLabel('Slug');
    expect(await slug.inputValue()).toBe('tower-lights-at-dusk');
    await slug.fill('tower-lights');
    const schedule = dialog().getByLabel(`Schedule (America/Chicago time)`);
    const when = tomorrowMorning();
    await schedule.fill(when.local);
    await screenshot(staff, 'blog-schedule-editor-1366');
    await dialog().getByRole('button', { name: 'Update Post' }).click();
    await staff.getByText('Blog post updated successfully').waitFor();

    await item.getByText('/blog/tower-lights').waitFor();
    await item.getByText('Scheduled', { exact: true }).waitFor();
    const label = await item.getByText(/^Scheduled for /).textContent();
    expect(label).toMatch(/^Scheduled for [A-Z][a-z]{2} \d{1,2}, \d{4}, 9:30 AM \(America\/Chicago\)$/);
    const scheduled = await staff.evaluate(() =>
      fetch('/api/admin/blog?status=scheduled').then(
        (response) => response.json() as Promise<{ items: { title: string; slug: string; publishAt: string }[] }>,
      ),
    );
    expect(scheduled.items).toEqual([
      expect.objectContaining({ title: 'Tower Lights at Dusk', slug: 'tower-lights', publishAt: when.instant }),
    ]);
    expect(await accessibilityViolations(staff)).toEqual([]);
    await dismissToasts();
    await screenshot(staff, 'blog-schedule-list-1366');

    await staff.setViewportSize({ width: 390, height: 844 });
    await dismissToasts();
    await item.getByText(/^Scheduled for /).waitFor();
    expect(await staff.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(staff, 'blog-schedule-list-390');
    await item.getByRole('button', { name: 'Edit' }).click();
    expect(await dialog().getByLabel('Schedule (America/Chicago time)').inputValue()).toBe(when.local);
    await screenshot(staff, 'blog-schedule-editor-390');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
  });

  it('a visitor reads a post at /blog/{slug}; its id leads there', async () => {
    const post = await staff.evaluate(() =>
      fetch('/api/blog', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'The Night the Mast Fell',
          content: '<p>Ice on the guy wires, and then the wind.</p>',
          isPublished: true,
          slug: 'mast-fell',
        }),
      }).then((response) => response.json() as Promise<{ id: string; slug: string }>),
    );
    expect(post.slug).toBe('mast-fell');
    for (const width of [1366, 390]) {
      const context = await newContext(browser, site.url, { width, height: 900 });
      contexts.push(context);
      const visitor = await context.newPage();
      const response = await visitor.goto(`/blog/${post.id}`);
      expect(response!.status()).toBe(200);
      expect(new URL(visitor.url()).pathname).toBe('/blog/mast-fell');
      await visitor.getByRole('heading', { name: 'The Night the Mast Fell' }).first().waitFor();
      expect(await visitor.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${site.url}/blog/mast-fell`);
      await visitor.goto('/blog');
      // A busy machine may take a while to draw the list (the app takes over from the server's page).
      const readOn = visitor.getByRole('link', { name: 'Read full post' }).first();
      await readOn.waitFor({ timeout: 30_000 });
      await readOn.click();
      await visitor.waitForURL('**/blog/mast-fell');
      await visitor.getByText('Ice on the guy wires, and then the wind.').first().waitFor();
      expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await screenshot(visitor, `blog-slug-visitor-${width}`);
    }
    for (const context of contexts) await context.close();
  });
});
