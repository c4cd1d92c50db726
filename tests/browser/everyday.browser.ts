/**
 * What members trip over every day (issue 32), in a real browser: Join Community opens registration; a skip link is
 * the first Tab stop of every layout; the unread count shows on a phone's top bar; the RSVP dialog keeps the
 * keyboard after an answer; a visitor's blog post leads to the public blog and calendar, never "Admin"; the
 * moderation queues show pictures and players, not addresses; reports and rejections ask a reason, which staff and
 * the author read. Screenshots at 1366 and 390 px for the guest, the member and staff.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, newContext, openAs, person, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;
let admin: Page;
let member: Page;
let neighbour: Page;
const contexts: BrowserContext[] = [];
const memberAccount = person('Mel', 'Member');
const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_EVENT_MAX: '1000', RATE_LIMIT_POST_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  // The first account is the admin.
  for (const [account, path] of [
    [person('Ada', 'Admin'), '/admin'],
    [memberAccount, '/'],
    [person('Nora', 'Neighbour'), '/'],
  ] as const) {
    const opened = await openAs(browser, site.url, account, path);
    contexts.push(opened.context);
    await opened.page.setViewportSize(DESKTOP);
  }
  const [first, second, third] = contexts.map((context) => context.pages()[0]!);
  admin = first!;
  member = second!;
  neighbour = third!;
});

/** A call of the API as the page's member (their session cookie; JSON, so the same-origin rule lets it through). */
async function api<T = any>(page: Page, method: string, path: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(path, {
    method,
    headers: { 'content-type': 'application/json' },
    data: data === undefined ? '{}' : JSON.stringify(data),
  });
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
  return response.status() === 204 ? (undefined as T) : ((await response.json()) as T);
}

async function guest(viewport = DESKTOP): Promise<Page> {
  const context = await newContext(browser, site.url, viewport);
  contexts.push(context);
  return context.newPage();
}

const inDays = (days: number) => {
  const start = new Date(Date.now() + days * 24 * 3600 * 1000);
  start.setUTCHours(18, 0, 0, 0);
  return { startDate: start.toISOString(), endDate: new Date(start.getTime() + 3 * 3600 * 1000).toISOString() };
};

/** What has the keyboard: its tag, text and whether a dialog holds it. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return {
      tag: element?.tagName ?? null,
      id: element?.id ?? '',
      text: element?.textContent?.trim() ?? '',
      inDialog: Boolean(element?.closest('[role=dialog]')),
      visible: element ? element.getBoundingClientRect().width > 1 : false,
    };
  });

describe('what members trip over every day', () => {
  it('opens registration from Join Community, and signing in from Sign In', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await guest(viewport);
      await page.goto('/');
      await page.getByRole('link', { name: 'Join Community' }).click();
      await page.waitForURL(/\/register$/);
      await page.getByRole('heading', { name: 'Join the community' }).waitFor();
      await page.getByLabel('First name').waitFor();
      await screenshot(page, `everyday-join-guest-${viewport.width}`);
      await page.goBack();
      await page.getByRole('link', { name: 'Sign In' }).first().click();
      await page.waitForURL(/\/login$/);
    }
  });

  it('makes "Skip to content" the first Tab stop of every layout, moving focus to the main content', async () => {
    const visitor = await guest();
    const pages: [Page, string, string][] = [
      [visitor, '/', 'landing, guest'],
      [visitor, '/about', 'public layout, guest'],
      [visitor, '/blog', 'public blog, guest'],
      [member, '/', 'shell, member'],
      [member, '/calendar', 'shell calendar, member'],
      [admin, '/admin', 'shell dashboard, staff'],
      [admin, '/admin-webflow', 'public layout, staff'],
    ];
    for (const [page, path, what] of pages) {
      await page.goto(path);
      await page.locator('main').first().waitFor();
      await page.waitForLoadState('networkidle');
      await page.keyboard.press('Tab');
      expect(await focused(page), what).toMatchObject({ tag: 'A', text: 'Skip to content', visible: true });
      if (path === '/admin') await screenshot(page, 'everyday-skip-link-staff-1366');
      await page.keyboard.press('Enter');
      expect(await focused(page), what).toMatchObject({ tag: 'MAIN' });
      // Tab goes on from the content, not from the top of the page: the next stop is in or after the main content.
      await page.keyboard.press('Tab');
      const after = await page.evaluate(() => {
        const main = document.activeElement?.closest('main') ?? document.querySelector('main:focus-within, main');
        const active = document.activeElement;
        return Boolean(
          main && active && (main.contains(active) || main.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING),
        );
      });
      expect(after, what).toBe(true);
    }
  });

  it('shows the unread notifications count on a phone’s top bar, leading to the notifications', async () => {
    const post = await api<{ id: string }>(member, 'POST', '/api/posts', { content: 'My first day at WLS, 1961', tags: [] });
    await api(admin, 'PUT', `/api/admin/posts/${post.id}/approve`);
    await member.setViewportSize(PHONE);
    await member.goto('/');
    const bell = member.getByRole('link', { name: 'Notifications, 1 unread' });
    await bell.waitFor();
    expect(await member.getByRole('dialog', { name: 'Navigation' }).count()).toBe(0);
    expect(await bell.isVisible()).toBe(true);
    await screenshot(member, 'everyday-topbar-member-390');
    expect(await accessibilityViolations(member)).toEqual([]);
    await bell.click();
    await member.waitForURL(/\/notifications$/);
    await member
      .getByText(/was approved/)
      .first()
      .waitFor();
    await member.setViewportSize(DESKTOP);
    // On a wide screen the sidebar holds the count; the top bar does not repeat it.
    await member.goto('/');
    await member.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(
      await member
        .getByRole('banner')
        .getByRole('link', { name: /^Notifications/ })
        .count(),
    ).toBe(0);
  });

  it('keeps the keyboard in the RSVP dialog after an answer, and Escape still closes it', async () => {
    await api(admin, 'POST', '/api/events', { title: 'Transmitter open day', eventType: 'meeting', location: 'Tinley Park', ...inDays(5) });
    await member.goto('/calendar');
    await member.getByRole('button', { name: 'Transmitter open day' }).first().click();
    const dialog = member.getByRole('dialog');
    const rsvp = dialog.getByRole('region', { name: 'RSVP' });
    await rsvp.getByRole('button', { name: 'Maybe' }).focus();
    await member.keyboard.press('Enter');
    await member.getByText('RSVP updated successfully').waitFor();
    await expect.poll(() => rsvp.getByRole('button', { name: 'Maybe' }).getAttribute('aria-pressed')).toBe('true');
    await member.waitForTimeout(200);
    expect(await focused(member)).toMatchObject({ inDialog: true, text: 'Maybe' });

    // The answer taken back: its button goes, and focus goes to the first answer, still in the dialog.
    await rsvp.getByRole('button', { name: 'Remove RSVP' }).focus();
    await member.keyboard.press('Enter');
    await member.getByText('RSVP removed successfully').waitFor();
    await rsvp.getByRole('button', { name: 'Remove RSVP' }).waitFor({ state: 'detached' });
    await member.waitForTimeout(200);
    expect(await focused(member)).toMatchObject({ inDialog: true, text: 'Attending' });
    await screenshot(member, 'everyday-rsvp-dialog-member-1366');
    await member.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The same on a phone, by touch then keyboard.
    await member.setViewportSize(PHONE);
    await member.getByRole('button', { name: 'Transmitter open day' }).first().click();
    await rsvp.getByRole('button', { name: 'Attending', exact: true }).focus();
    await member.keyboard.press('Enter');
    await expect.poll(() => rsvp.getByRole('button', { name: 'Attending', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await focused(member)).toMatchObject({ inDialog: true, text: 'Attending' });
    await screenshot(member, 'everyday-rsvp-dialog-member-390');
    expect(await accessibilityViolations(member)).toEqual([]);
    await member.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await member.setViewportSize(DESKTOP);
  });

  it('leads a visitor from a blog post to the public blog and calendar, and never shows them Admin', async () => {
    await api(admin, 'POST', '/api/blog', {
      title: 'The Night the Tower Fell',
      isPublished: true,
      content: '<p>Storm winds took the WHAS tower down in 1974.</p>',
    });
    const blog = await api<{ items: { id: string; title: string }[] }>(admin, 'GET', '/api/blog');
    const postId = blog.items.find((post) => post.title === 'The Night the Tower Fell')!.id;
    await api(admin, 'POST', '/api/events', {
      title: 'WAVE Alumni Reunion',
      eventType: 'reunion',
      location: 'Louisville Palace',
      isPublic: true,
      ...inDays(8),
    });

    for (const viewport of [DESKTOP, PHONE]) {
      const page = await guest(viewport);
      await page.goto(`/blog/${postId}`);
      await page.getByRole('link', { name: 'Browse More Posts' }).click();
      await page.waitForURL(/\/blog$/);
      await page.getByRole('heading', { name: 'Blog', level: 1 }).waitFor();
      await page.getByRole('link', { name: /Read full post.*The Night the Tower Fell/ }).waitFor();
      expect(await page.getByRole('link', { name: 'Join Community' }).count()).toBe(0);
      // A guest's blog is the server's page (no app): its header's links wrap on a phone, without a menu button.
      const serverHeader = page.getByRole('navigation', { name: 'Site' });
      expect(await serverHeader.getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await serverHeader.getByRole('link', { name: 'Sign in' }).waitFor();
      await screenshot(page, `everyday-public-blog-guest-${viewport.width}`);
      expect(await accessibilityViolations(page)).toEqual([]);

      await serverHeader.getByRole('link', { name: 'Calendar' }).click();
      await page.waitForURL(/\/calendar$/);
      const menu = page.getByRole('button', { name: 'Menu' });
      const header = page.getByRole('navigation', { name: viewport === PHONE ? 'Site menu' : 'Site' });
      await page.getByRole('heading', { name: 'Events & Calendar' }).waitFor();
      await page.getByRole('button', { name: 'WAVE Alumni Reunion' }).first().waitFor();
      expect(await page.getByRole('button', { name: 'New Event' }).count()).toBe(0);
      await screenshot(page, `everyday-public-calendar-guest-${viewport.width}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'WAVE Alumni Reunion' }).first().click();
      await page.getByRole('dialog').getByRole('link', { name: 'Sign in to RSVP' }).waitFor();
      await page.keyboard.press('Escape');

      if (viewport === PHONE) await menu.click();
      expect(await header.getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await header.getByRole('link', { name: 'Sign in' }).waitFor();
      await header.getByRole('link', { name: 'Blog' }).click();
      await page.waitForURL(/\/blog$/);
      await page.getByRole('heading', { name: 'Blog', level: 1 }).waitFor();
    }
    // Staff still find Admin in the public layout.
    await admin.goto('/admin-webflow');
    await admin.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Admin' }).waitFor();
  });

  it('shows moderators the pictures and recordings they approve, and asks a reason for a rejection and a report', async () => {
    // A picture and a recording waiting for approval, and an event with its cover.
    const picture = await api<{ id: string }>(member, 'POST', '/api/posts', {
      content: 'Our old ribbon microphone',
      mediaType: 'image',
      mediaUrl: `${site.url}/og-image.png`,
      tags: [],
    });
    const recording = await api<{ id: string }>(member, 'POST', '/api/posts', {
      content: 'An aircheck from 1969',
      mediaType: 'audio',
      mediaUrl: `${site.url}/media/aircheck.mp3`,
      tags: [],
    });
    const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 40, g: 70, b: 120 } } })
      .png()
      .toBuffer();
    const upload = await member.request.post('/api/media', {
      headers: { origin: site.url },
      multipart: { file: { name: 'hall.png', mimeType: 'image/png', buffer: png } },
    });
    expect(upload.status()).toBe(201);
    const cover = (await upload.json()) as { id: string };
    await api(member, 'POST', '/api/events', {
      title: 'Record hop at the armory',
      eventType: 'celebration',
      location: 'Armory',
      mediaId: cover.id,
      ...inDays(12),
    });

    await admin.setViewportSize(DESKTOP);
    await admin.goto('/admin');
    const queue = admin.locator('main');
    const shown = queue.getByRole('img', { name: 'Picture shared with the post by Mel Member' });
    await shown.waitFor();
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await queue.getByLabel('Recording shared with the post by Mel Member').waitFor();
    expect(await queue.getByText(/image: http|audio: http/).count()).toBe(0);
    await screenshot(admin, 'everyday-moderation-staff-1366');
    expect(await accessibilityViolations(admin)).toEqual([]);

    // Rejecting asks why; the author reads it.
    await queue.getByRole('button', { name: 'Reject the post by Mel Member' }).last().click();
    const ask = admin.getByRole('dialog', { name: 'Reject this post?' });
    await ask.getByLabel(/Reason for the author/).fill('Please say which station this was.');
    await screenshot(admin, 'everyday-reject-reason-staff-1366');
    expect(await accessibilityViolations(admin)).toEqual([]);
    await ask.getByRole('button', { name: 'Reject post' }).click();
    await admin.getByText('Post rejected').first().waitFor();
    await ask.waitFor({ state: 'detached' });
    await member.goto('/notifications');
    await member.getByText('Your post “An aircheck from 1969” was not approved: Please say which station this was.').click();
    // The notice leads to the post, which shows its author why.
    await member.waitForURL(new RegExp(`/posts/${recording.id}`));
    await member.getByText('Reason: Please say which station this was.').waitFor();
    await screenshot(member, 'everyday-rejected-post-member-1366');

    await admin.setViewportSize(PHONE);
    await admin.goto('/admin');
    await admin.getByRole('img', { name: 'Picture shared with the post by Mel Member' }).waitFor();
    await screenshot(admin, 'everyday-moderation-staff-390');
    await admin.setViewportSize(DESKTOP);

    // The pending event shows its cover; rejecting it asks why, and its organizer reads it.
    await admin.goto('/events/manage');
    const event = admin.getByRole('listitem', { name: 'Record hop at the armory' });
    await event.getByRole('img', { name: 'Picture shared with the event Record hop at the armory' }).waitFor();
    await screenshot(admin, 'everyday-pending-events-staff-1366');
    await admin.setViewportSize(PHONE);
    await event.getByRole('img', { name: 'Picture shared with the event Record hop at the armory' }).waitFor();
    await screenshot(admin, 'everyday-pending-events-staff-390');
    await admin.setViewportSize(DESKTOP);
    await event.getByRole('button', { name: 'Reject Record hop at the armory' }).click();
    const askEvent = admin.getByRole('dialog', { name: 'Reject this event?' });
    await askEvent.getByLabel(/Reason for the organizer/).fill('Which armory? Add the street.');
    await askEvent.getByRole('button', { name: 'Reject event' }).click();
    await admin.getByText('Event rejected successfully').first().waitFor();
    await member.setViewportSize(PHONE);
    await member.goto('/notifications');
    await member.getByText('Your event “Record hop at the armory” was not approved: Which armory? Add the street.').waitFor();
    await screenshot(member, 'everyday-rejection-reasons-member-390');
    await member.setViewportSize(DESKTOP);

    // A report asks why; staff see the reason and the picture in the reports queue.
    await api(admin, 'PUT', `/api/admin/posts/${picture.id}/approve`);
    for (const viewport of [DESKTOP, PHONE]) {
      await neighbour.setViewportSize(viewport);
      await neighbour.goto('/');
      const card = neighbour.getByRole('article', { name: 'Post by Mel Member' }).filter({ hasText: 'Our old ribbon microphone' });
      await card.getByRole('button', { name: 'Report' }).click();
      const report = neighbour.getByRole('dialog', { name: 'Report this post?' });
      await report.getByLabel(/What is wrong with it/).fill('This picture is not ours to share.');
      await screenshot(neighbour, `everyday-report-dialog-member-${viewport.width}`);
      expect(await accessibilityViolations(neighbour)).toEqual([]);
      if (viewport === DESKTOP) {
        await report.getByRole('button', { name: 'Report post' }).click();
        await neighbour.getByText('Thank you. Staff will review it.').first().waitFor();
        await report.waitFor({ state: 'detached' });
      } else {
        await neighbour.keyboard.press('Escape');
        await report.waitFor({ state: 'detached' });
      }
    }
    await neighbour.setViewportSize(DESKTOP);
    for (const viewport of [DESKTOP, PHONE]) {
      await admin.setViewportSize(viewport);
      await admin.goto('/admin/reports');
      const entry = admin.getByRole('listitem', { name: 'Post by Mel Member' });
      await entry.getByRole('list', { name: 'Reasons given' }).getByText('This picture is not ours to share.').waitFor();
      await entry.getByRole('img', { name: 'Picture shared with the post by Mel Member' }).waitFor();
      await screenshot(admin, `everyday-reports-staff-${viewport.width}`);
      expect(await accessibilityViolations(admin)).toEqual([]);
    }
    await admin.setViewportSize(DESKTOP);
  });
});
