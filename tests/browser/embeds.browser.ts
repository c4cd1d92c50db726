/**
 * Embeds as another site uses them: a host page on a different origin
 * (http://localhost:<its own port>, the site being http://127.0.0.1:<port>) pastes
 * the loader and widget placeholders; each widget is checked inside its frame.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser as Chromium, FrameLocator, Locator, Page } from 'playwright-core';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';
import { accessibilityViolations, launchChromium, newContext, openAs, person, screenshot } from '../support/browser';

let site: TestSite;
let chromium: Chromium;
let admin: Browser;
let member: Browser;
let host: Server;
let hostUrl: string;
const hostPages = new Map<string, string>();

const DAY = 24 * 3600 * 1000;
const LONG_TEXT =
  'The first licensed station in the state went on the air from a hotel ballroom, with a borrowed transmitter and an orchestra that played until the tubes gave out at midnight.';
let blogPostId: string;
let eventIds: string[] = [];

function hostPage(name: string, widgets: string): string {
  hostPages.set(
    `/${name}`,
    `<!doctype html><html lang="en"><head><title>A museum's page</title></head><body style="margin:0;background:#fde68a"><h1>Friends of the museum</h1>${widgets}<script src="${site.url}/embed.js" async></script></body></html>`,
  );
  return `${hostUrl}/${name}`;
}
const widget = (name: string, attributes = '') => `<div data-bhc-widget="${name}"${attributes}></div>`;
const frameOf = (page: Page, selector: string): FrameLocator => page.frameLocator(selector);

async function post(author: Browser, content: string, extra: Record<string, unknown> = {}) {
  const response = await author.post('/api/posts', { content, ...extra });
  expect(response.status).toBe(201);
  if (!response.body.isApproved) expect((await admin.put(`/api/admin/posts/${response.body.id}/approve`)).status).toBe(200);
  return response.body.id as string;
}

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '10000', RATE_LIMIT_POST_MAX: '10000', RATE_LIMIT_EVENT_MAX: '10000' });
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
  const staffAccount = await registerMember(site.url, { firstName: 'Stan', lastName: 'Staff' });
  await admin.put(`/api/admin/users/${staffAccount.user.id}/role`, { role: 'staff' });
  member = (await registerMember(site.url, { firstName: 'Mona', lastName: 'Member' })).browser;
  const subscriberAccount = await registerMember(site.url, { firstName: 'Sue', lastName: 'Subscriber' });
  await admin.put(`/api/admin/users/${subscriberAccount.user.id}/role`, { role: 'subscriber' });

  for (let i = 1; i <= 4; i++) await post(admin, `Admin note ${i}`, { tags: ['radio'] });
  await post(admin, 'Admin post with a link', { mediaType: 'link', mediaUrl: 'https://example.org/archive', mediaTitle: 'The archive' });
  await post(staffAccount.browser, 'Staff post about the tower', { tags: ['tower', 'signal'] });
  await post(member, 'Member memory of the studio');
  await post(subscriberAccount.browser, 'Subscriber question about call letters');

  const now = Date.now();
  const event = async (days: number, overrides: Record<string, unknown> = {}) => {
    const start = new Date(now + days * DAY);
    const response = await admin.post('/api/events', {
      title: `Gathering in ${days} days`,
      eventType: 'reunion',
      location: 'Tribune Tower',
      description: LONG_TEXT,
      startDate: start.toISOString(),
      endDate: new Date(start.getTime() + 2 * 3600 * 1000).toISOString(),
      ...overrides,
    });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };
  await event(-3, { title: 'Already over' });
  const allDay = new Date(now + 2 * DAY).toISOString().slice(0, 10);
  eventIds = [
    await event(1, { maxAttendees: 40, eventType: 'anniversary' }),
    await event(2, { title: 'All-day open house', allDay: true, startDate: `${allDay}T00:00:00.000Z`, endDate: `${allDay}T00:00:00.000Z` }),
  ];
  for (let days = 3; days <= 7; days++) eventIds.push(await event(days));

  for (let i = 1; i <= 5; i++) {
    const created = await admin.post('/api/blog', {
      title: `Station story ${i}`,
      content: `${i === 5 ? '<p>Steady nerve</p>' : ''}<p>${LONG_TEXT} ${LONG_TEXT}</p>`,
      excerpt: LONG_TEXT,
      isPublished: true,
      tags: i === 5 ? ['radio', 'tv', 'towers', 'people', 'archives'] : ['radio'],
    });
    expect(created.status).toBe(201);
    blogPostId = created.body.id;
  }

  host = createServer((request, response) => {
    const page = hostPages.get(request.url ?? '');
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? 'not found');
  });
  await new Promise<void>((done) => host.listen(0, '127.0.0.1', done));
  hostUrl = `http://localhost:${(host.address() as AddressInfo).port}`;
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
  await new Promise((done) => host?.close(done));
  await site?.close();
});

const texts = (within: FrameLocator | Locator, selector: string) => within.locator(selector).allTextContents();

describe('widgets on another site', () => {
  it('shows every widget with the spec’s defaults, truncation, tags, role colours and errors, sized to its content', async () => {
    const url = hostPage(
      'all',
      [
        widget('feed', ' id="feed"'),
        widget('simple', ' id="simple"'),
        widget('ultra', ' id="ultra"'),
        widget('compact', ' id="compact"'),
        widget('minimal', ' id="minimal"'),
        widget('calendar', ' id="calendar"'),
        widget('calendar', ' id="calendar-compact" data-compact="1" data-limit="2"'),
        widget('blog', ' id="blog"'),
        widget('blog', ' id="blog-compact" data-compact="1"'),
        widget('blog-post', ` id="single" data-id="${blogPostId}"`),
        widget('blog-post', ' id="missing" data-id="00000000-0000-4000-8000-000000000000"'),
        widget('blog-post', ' id="failing" data-id="11111111-1111-4111-8111-111111111111"'),
        widget('calendar', ' id="failing-events" data-featured="true"'),
      ].join(''),
    );
    const context = await newContext(chromium, hostUrl, { height: 900 });
    // A server failure for one post, to see the widget's failure text.
    await context.route('**/api/blog/11111111-1111-4111-8111-111111111111', (route) =>
      route.fulfill({ status: 500, body: '{"message":"boom"}' }),
    );
    await context.route(/\/api\/events\?.*featured=true/, (route) => route.fulfill({ status: 500, body: '{"message":"boom"}' }));
    const page = await context.newPage();
    await page.goto(url);
    expect(new URL(page.url()).origin).not.toBe(new URL(site.url).origin);

    // The loader replaced each placeholder with a frame of the site's origin.
    await expect.poll(() => page.locator('iframe').count()).toBe(13);
    expect(await page.locator('div[data-bhc-widget]').count()).toBe(0);
    expect(await page.locator('#calendar-compact').getAttribute('src')).toBe(`${site.url}/embed/calendar?compact=1&limit=2`);

    const feed = frameOf(page, '#feed');
    await feed.locator('article').first().waitFor();
    expect(await feed.locator('h1').textContent()).toBe('Community Feed');
    expect(await texts(feed, '.content')).toEqual([
      'Subscriber question about call letters',
      'Member memory of the studio',
      'Staff post about the tower',
      'Admin post with a link',
      'Admin note 4',
    ]);
    expect(await feed.locator('.counts').first().textContent()).toBe('0 likes0 comments');
    expect(await feed.locator('.media-link').getAttribute('target')).toBe('_blank');
    const colour = (role: string) =>
      feed
        .locator(`.role-${role}`)
        .first()
        .evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await colour('admin')).toBe('rgb(220, 38, 38)');
    expect(await colour('staff')).toBe('rgb(37, 99, 235)');
    expect(await colour('member')).toBe('rgb(21, 128, 61)');
    expect(await colour('subscriber')).toBe('rgb(250, 204, 21)');
    expect(await feed.locator('.tags').first().textContent()).toBe('#tower#signal');

    for (const [id, count] of [
      ['simple', 5],
      ['ultra', 5],
      ['compact', 3],
      ['minimal', 5],
    ] as const) {
      const frame = frameOf(page, `#${id}`);
      await frame.locator('article').first().waitFor();
      expect(await frame.locator('article').count(), id).toBe(count);
    }
    expect(await frameOf(page, '#minimal').locator('header').count()).toBe(0);
    expect(await frameOf(page, '#compact').locator('header h1').textContent()).toBe('Community Feed');
    expect(await frameOf(page, '#simple').locator('.avatar, .media, .media-link').count()).toBe(0);

    const calendar = frameOf(page, '#calendar');
    await calendar.locator('article').first().waitFor();
    expect(await calendar.locator('h1').textContent()).toBe('Upcoming Events');
    const titles = await texts(calendar, 'article h2 a');
    expect(titles).toEqual([
      'Gathering in 1 days',
      'All-day open house',
      'Gathering in 3 days',
      'Gathering in 4 days',
      'Gathering in 5 days',
    ]);
    const descriptions = await texts(calendar, 'article .content');
    for (const text of descriptions) expect(text.length <= 101 && text.endsWith('…'), text).toBe(true);
    expect(await calendar.locator('article').nth(1).locator('.when').textContent()).toMatch(/All day$/);
    expect(await calendar.locator('article').first().locator('.muted').first().textContent()).toBe('Anniversary · Tribune Tower');
    expect(await calendar.locator('article').first().locator('[data-attendance]').textContent()).toBe('0 of 40 attending');
    expect(await calendar.locator('article .ref').first().textContent()).toBe(`#${eventIds[0]!.slice(0, 8)}`);
    const compactCalendar = frameOf(page, '#calendar-compact');
    await compactCalendar.locator('article').first().waitFor();
    expect(await compactCalendar.locator('article').count()).toBe(2);
    for (const text of await texts(compactCalendar, 'article .content')) expect(text.length <= 61 && text.endsWith('…'), text).toBe(true);

    const blog = frameOf(page, '#blog');
    await blog.locator('article').first().waitFor();
    expect(await blog.locator('article').count()).toBe(5);
    expect(await blog.locator('h1').textContent()).toBe('From the Blog');
    for (const text of await texts(blog, 'article .content')) expect(text.length <= 121 && text.endsWith('…'), text).toBe(true);
    expect(await texts(blog.locator('article').first(), '.tags li')).toEqual(['#radio', '#tv', '#towers', '+2']);
    const compactBlog = frameOf(page, '#blog-compact');
    await compactBlog.locator('article').first().waitFor();
    for (const text of await texts(compactBlog, 'article .content')) expect(text.length <= 81 && text.endsWith('…'), text).toBe(true);

    const single = frameOf(page, '#single');
    await single.locator('article').waitFor();
    expect(await single.locator('h1').textContent()).toBe('Station story 5');
    const body = (await single.locator('.content').textContent())!;
    // Blocks end words: the two paragraphs do not run together.
    expect(body.length <= 201 && body.endsWith('…') && body.startsWith('Steady nerve The first licensed station'), body).toBe(true);
    expect(await frameOf(page, '#missing').getByText('Blog post not found').count()).toBe(1);
    await frameOf(page, '#failing').getByText('Failed to load blog post.').waitFor();
    await frameOf(page, '#failing-events').getByText('Failed to load events.').waitFor();

    // Every link to the site opens in the page holding the widget, never inside the frame.
    for (const id of ['feed', 'minimal', 'calendar', 'blog', 'single']) {
      const targets = await frameOf(page, `#${id}`)
        .locator(`a[href^="${site.url}"]`)
        .evaluateAll((links) => links.map((link) => link.getAttribute('target')));
      expect(targets.length, id).toBeGreaterThan(0);
      expect(new Set(targets), id).toEqual(new Set(['_top']));
    }

    // Each frame is as tall as its widget: the loader follows the height the widget posts.
    for (const id of ['feed', 'compact', 'calendar', 'single', 'missing']) {
      const frame = page.locator(`#${id}`);
      const content = await frameOf(page, `#${id}`)
        .locator('#widget')
        .evaluate((element) => Math.ceil(element.getBoundingClientRect().height));
      await expect.poll(() => frame.evaluate((element) => element.getBoundingClientRect().height), { timeout: 3000 }).toBe(content);
    }
    expect(await page.locator('#compact').evaluate((element) => element.getBoundingClientRect().height)).toBeLessThan(
      await page.locator('#feed').evaluate((element) => element.getBoundingClientRect().height),
    );
    await screenshot(page, 'embeds-host-page');

    // A link opens the main site in the top window.
    await frameOf(page, '#calendar').getByRole('link', { name: 'View all' }).click();
    // The top window's address is the proof; its page loading in full is the calendar tests' part.
    await page.waitForURL(`${site.url}/calendar`, { waitUntil: 'commit' });
    await context.close();
  });

  it('makes the background transparent on request (bg=transparent or transparent=1), white otherwise', async () => {
    const url = hostPage(
      'transparent',
      widget('compact', ' id="plain"') +
        widget('compact', ' id="bg" data-bg="transparent"') +
        widget('calendar', ' id="flag" data-transparent="1"'),
    );
    const context = await newContext(chromium, hostUrl);
    const page = await context.newPage();
    await page.goto(url);
    const background = async (id: string) => {
      const frame = frameOf(page, `#${id}`);
      await frame.locator('section').waitFor();
      return frame
        .locator('html')
        .evaluate((element) => [getComputedStyle(element).backgroundColor, getComputedStyle(document.body).backgroundColor]);
    };
    expect(await background('plain')).toEqual(['rgb(255, 255, 255)', 'rgba(0, 0, 0, 0)']);
    expect(await background('bg')).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
    expect(await background('flag')).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
    await screenshot(page, 'embeds-transparent');
    await context.close();
  });

  it('shows an approved post, a new RSVP count and a published blog post within 2 seconds, by push and without polling', async () => {
    const url = hostPage(
      'live',
      widget('compact', ' id="feed"') + widget('calendar', ' id="calendar"') + widget('blog', ' id="blog" data-limit="1"'),
    );
    const context = await newContext(chromium, hostUrl);
    const page = await context.newPage();
    const apiRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) apiRequests.push(request.url());
    });
    await page.goto(url);
    const feed = frameOf(page, '#feed');
    const calendar = frameOf(page, '#calendar');
    const blog = frameOf(page, '#blog');
    await feed.locator('article').first().waitFor();
    await calendar.locator('article').first().waitFor();
    await blog.locator('article').first().waitFor();

    // Quiet: no request while nothing changes (the prototype polled every 30 to 300 seconds; a widget here never does).
    await page.waitForTimeout(1500);
    const settled = apiRequests.length;
    await page.waitForTimeout(2500);
    expect(apiRequests.length).toBe(settled);

    const pending = await member.post('/api/posts', { content: 'A member remembers the night the tower fell' });
    expect(pending.body.isApproved).toBe(false);
    await page.waitForTimeout(300);
    expect(await feed.getByText('A member remembers the night the tower fell').count()).toBe(0);
    let started = Date.now();
    expect((await admin.put(`/api/admin/posts/${pending.body.id}/approve`)).status).toBe(200);
    await feed.getByText('A member remembers the night the tower fell').waitFor({ timeout: 2000 });
    const approvalShownMs = Date.now() - started;

    const attendance = calendar.locator('article').first().locator('[data-attendance]');
    expect(await attendance.textContent()).toBe('0 of 40 attending');
    started = Date.now();
    expect((await member.put(`/api/events/${eventIds[0]}/rsvp/me`, { status: 'attending' })).status).toBe(200);
    await expect.poll(() => attendance.textContent(), { timeout: 2000, interval: 50 }).toBe('1 of 40 attending');
    const rsvpShownMs = Date.now() - started;

    const draft = await admin.post('/api/blog', { title: 'Fresh from the archive', content: '<p>New</p>' });
    started = Date.now();
    await admin.post(`/api/blog/${draft.body.id}/publish`);
    await blog.getByRole('link', { name: 'Fresh from the archive' }).waitFor({ timeout: 2000 });
    const publicationShownMs = Date.now() - started;
    console.log(`approval shown after ${approvalShownMs} ms, RSVP after ${rsvpShownMs} ms, publication after ${publicationShownMs} ms`);
    await context.close();
  });

  it('refetches after the socket reconnects, catching what changed while it was away', async () => {
    const url = hostPage('reconnect', widget('compact', ' id="feed"'));
    const context = await newContext(chromium, hostUrl);
    const sockets: { close: () => Promise<void> }[] = [];
    // While `holding`, a new connection waits before it reaches the server, so the change below happens with none open.
    let holding = false;
    const held: (() => void)[] = [];
    await context.routeWebSocket(/\/socket\.io\//, (socket) => {
      sockets.push(socket);
      if (holding) held.push(() => socket.connectToServer());
      else socket.connectToServer();
    });
    const page = await context.newPage();
    await page.goto(url);
    const feed = frameOf(page, '#feed');
    await feed.locator('article').first().waitFor();
    await expect.poll(() => sockets.length).toBe(1);
    await page.waitForTimeout(300);

    holding = true;
    await sockets[0]!.close();
    await post(admin, 'Posted while the widget was offline');
    await expect.poll(() => held.length, { timeout: 5000 }).toBe(1);
    await page.waitForTimeout(300);
    expect(await feed.getByText('Posted while the widget was offline').count()).toBe(0);
    holding = false;
    held.shift()!();
    await feed.getByText('Posted while the widget was offline').waitFor({ timeout: 3000 });
    await context.close();
  });
});

describe('widgets page for staff', () => {
  it('lists each widget with its snippet, a copy button, options and a live preview; others get the not-found page', async () => {
    const staff = person('Stella', 'Staff');
    const { context, page } = await openAs(chromium, site.url, staff);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    const users = await admin.get('/api/admin/users');
    const stella = (users.body.items as { id: string; email: string }[]).find((user) => user.email === staff.email)!;
    await admin.put(`/api/admin/users/${stella.id}/role`, { role: 'staff' });

    await page.goto('/admin');
    await page.getByRole('link', { name: 'Widgets for other sites' }).click();
    await page.waitForURL('**/admin/widgets');
    await page.getByRole('heading', { name: 'Widgets', level: 1 }).waitFor();
    for (const label of [
      'Feed',
      'Simple feed',
      'Ultra-simple feed',
      'Compact feed',
      'Minimal feed',
      'Events',
      'Blog',
      'Single blog post',
    ]) {
      await page.getByRole('heading', { name: label, exact: true }).waitFor();
    }

    const events = page.getByRole('region', { name: 'Events', exact: true });
    const snippet = events.getByLabel('Events snippet', { exact: true });
    expect(await snippet.textContent()).toBe(
      `<script src="${site.url}/embed.js" async></script>\n<div data-bhc-widget="calendar" data-limit="5"></div>`,
    );
    await events.getByLabel('Number shown').fill('2');
    await events.getByLabel('Transparent background').check();
    expect(await snippet.textContent()).toBe(
      `<script src="${site.url}/embed.js" async></script>\n<div data-bhc-widget="calendar" data-limit="2" data-transparent="1"></div>`,
    );
    const preview = events.frameLocator('iframe');
    await expect.poll(() => preview.locator('article').count()).toBe(2);
    // Both read at each look: the preview reloads at each change of option, and a look during a reload tries again.
    await expect
      .poll(async () => {
        const frame = Math.round((await events.locator('iframe').boundingBox())!.height);
        const widget = await preview
          .locator('#widget')
          .evaluate((element) => Math.ceil(element.getBoundingClientRect().height))
          .catch(() => null);
        return frame === widget ? 'the frame fits the widget' : `frame ${frame} px, widget ${widget} px`;
      })
      .toBe('the frame fits the widget');

    await events.getByRole('button', { name: 'Copy the Events snippet' }).click();
    await page.getByText('Snippet copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await snippet.textContent());

    const single = page.getByRole('region', { name: 'Single blog post', exact: true });
    expect(await single.getByLabel('Single blog post snippet', { exact: true }).textContent()).toContain(
      `data-bhc-widget="blog-post" data-id="`,
    );
    await single.frameLocator('iframe').locator('article h1').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'embeds-widgets-page');
    await context.close();

    const visitor = await openAs(chromium, site.url, person('Max', 'Member'), '/admin/widgets');
    await visitor.page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await visitor.page.getByRole('heading', { name: 'Widgets', level: 1 }).count()).toBe(0);
    await visitor.context.close();
  });

  it('has no serious accessibility problems in a widget', async () => {
    const context = await newContext(chromium, site.url);
    const page = await context.newPage();
    for (const path of ['/embed', '/embed/calendar', '/embed/blog']) {
      await page.goto(path);
      await page.locator('article').first().waitFor();
      expect(await accessibilityViolations(page), path).toEqual([]);
    }
    await context.close();
  });
});
