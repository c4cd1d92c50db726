/**
 * Discussions in real browsers: staff open a category in the dashboard; a member starts a topic and another sees it
 * arrive in the list, unread, with the sidebar's count; the second quotes a reply and answers, and the first sees the
 * answer appear without a reload and their own count move; a long topic opens at the reply its address names; staff
 * close a topic and its reply box gives way to "This topic is closed"; the keyboard reaches the reply box; a category
 * that holds topics is not deleted. Desktop and phone.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, openAs, person, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
let staff: Page;
let mary: Page;
let otto: Page;

async function open(account: ReturnType<typeof person>) {
  const { context, page } = await openAs(browser, site.url, account);
  contexts.push(context);
  await page.getByRole('heading', { name: 'Broadcast History Newsfeed' }).waitFor();
  return page;
}

mkdirSync('/tmp/discussions-screens', { recursive: true });

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000', RATE_LIMIT_COMMENT_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  staff = await open(person('Ada', 'Admin'));
  mary = await open(person('Mary', 'Member'));
  otto = await open(person('Otto', 'Other'));
});

/** The sidebar's Discussions entry, with its unread count when there is one. */
const sidebarEntry = (page: Page, unread: number) =>
  page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: unread ? `Discussions ${unread} new` : 'Discussions', exact: true });

/** A screenshot of the whole page for CI, and of the window (what a reader sees at once) to look at here. */
async function shot(page: Page, name: string) {
  await screenshot(page, name);
  await page.screenshot({ path: `/tmp/discussions-screens/${name}-window.png` });
}

let categoryId = '';
let topicUrl = '';

describe('discussions', () => {
  it('staff open a category in the dashboard', async () => {
    await staff.goto('/admin/discussions');
    await staff.getByText('No categories yet').waitFor();
    await staff.getByRole('button', { name: 'New category' }).click();
    const dialog = staff.getByRole('dialog', { name: 'New category' });
    await dialog.getByLabel('Name').fill('Stations and studios');
    await dialog.getByLabel('Description').fill('Call letters, transmitters, the buildings and the people in them.');
    await dialog.getByRole('button', { name: 'Colour #15803d' }).click();
    await dialog.getByRole('button', { name: 'Create category' }).click();
    await staff.getByRole('button', { name: 'Edit Stations and studios' }).waitFor();
    const categories = await (await staff.request.get('/api/categories')).json();
    categoryId = categories.find((category: { name: string }) => category.name === 'Stations and studios').id;
    expect(categoryId).toBeTruthy();
    expect(
      (
        await staff.request.post('/api/admin/categories', {
          data: { name: 'Equipment', description: 'Remote trucks, consoles and microphones.', color: '#1d4ed8' },
        })
      ).status(),
    ).toBe(201);
    await staff.getByRole('button', { name: 'Edit Equipment' }).waitFor();
    await shot(staff, 'discussions-categories-admin');
    expect(await accessibilityViolations(staff)).toEqual([]);
  });

  it('a topic started by one member reaches another live, unread, with the sidebar count', async () => {
    await otto.getByRole('link', { name: /^Discussions/ }).click();
    await otto.getByRole('heading', { name: 'Discussions', level: 1 }).waitFor();
    await otto.getByText('No topics yet. Start the first conversation!').waitFor();

    await mary.goto('/discussions');
    await mary.getByRole('button', { name: 'New topic' }).click();
    const dialog = mary.getByRole('dialog', { name: 'New topic' });
    await dialog.getByLabel('Title').fill('Who remembers the KRNT night crew?');
    await dialog.getByLabel('Category').selectOption({ label: 'Stations and studios' });
    await dialog.getByLabel('Opening post').fill('They ran the late show from 1958.\n\nWho else listened?');
    await dialog.getByLabel(/Tags/).fill('krnt, night shift');
    await dialog.getByRole('button', { name: 'Start topic' }).click();
    await mary.getByRole('heading', { name: 'Who remembers the KRNT night crew?', level: 1 }).waitFor();
    topicUrl = new URL(mary.url()).pathname;
    await mary.getByLabel('Write a reply').fill('My uncle Walt was the engineer on that shift.');
    await mary.getByRole('button', { name: 'Reply', exact: true }).click();
    await mary.getByRole('article', { name: 'Reply by Mary Member' }).waitFor();

    // Otto's list shows it without a reload: bold, with its unread badge, and his sidebar counts it.
    const row = otto.getByRole('link', { name: /Who remembers the KRNT night crew\?/ });
    await row.waitFor();
    expect(await row.getAttribute('class')).toContain('font-bold');
    await otto.getByRole('link', { name: 'Who remembers the KRNT night crew? (1 unread reply)' }).waitFor();
    await sidebarEntry(otto, 1).waitFor();
    await otto.getByRole('button', { name: /Stations and studios\s*1 topic/ }).waitFor();
    await shot(otto, 'discussions-list-desktop');
    expect(await accessibilityViolations(otto)).toEqual([]);
  });

  it('a quoted reply appears for the topic starter without a reload, and both counts move', async () => {
    // Mary stays on her topic, on a short window: Otto's answer will arrive below what she sees.
    await mary.setViewportSize({ width: 1280, height: 420 });
    await mary.evaluate(() => window.scrollTo(0, 0));
    await otto.getByRole('link', { name: /Who remembers the KRNT night crew\?/ }).click();
    const walt = otto.getByRole('article', { name: 'Reply by Mary Member' });
    await walt.getByRole('button', { name: 'Quote' }).click();
    const box = otto.getByLabel('Write a reply');
    expect(await box.inputValue()).toBe('> Mary Member wrote:\n> My uncle Walt was the engineer on that shift.\n\n');
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    await otto.getByText('Replying to Mary Member').waitFor();
    // Having had the whole topic on screen, Otto has nothing unread left.
    await sidebarEntry(otto, 0).waitFor();
    await box.pressSequentially('Walt Jensen? He taught me to splice tape.');
    await box.press('Control+Enter');
    await otto.getByRole('article', { name: 'Reply by Otto Other' }).waitFor();
    // Emptied by the command's answer, which under load may come after the notice has drawn the reply.
    await expect.poll(() => box.inputValue()).toBe('');
    // The page goes to the new reply (on a long topic, past pages not loaded yet).
    await otto.waitForURL(/#reply-[\w-]+$/u);

    const answer = mary.getByRole('article', { name: 'Reply by Otto Other' });
    await answer.getByText('Walt Jensen? He taught me to splice tape.').waitFor();
    await answer.locator('blockquote').getByText('My uncle Walt was the engineer on that shift.').waitFor();
    await answer.getByRole('link', { name: 'in reply to Mary Member (#1)' }).waitFor();
    // Not yet read: Mary's sidebar counts the topic, until she scrolls down to the answer.
    await sidebarEntry(mary, 1).waitFor();
    await answer.scrollIntoViewIfNeeded();
    await sidebarEntry(mary, 0).waitFor();
    await mary.setViewportSize({ width: 1280, height: 800 });
    await shot(mary, 'discussions-topic-quoted');
    expect(await accessibilityViolations(mary)).toEqual([]);
  });

  it('a long topic opens at the reply its address names, on a desktop and a phone', async () => {
    const id = topicUrl.split('/').at(-1)!;
    // Thirty replies at once: the topic numbers them in the order they land.
    const posted = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        staff.request.post(`/api/topics/${id}/replies`, {
          data: { content: `<p>Log entry ${n + 1}: the night transmitter ran at ${901 + n} watts, and the tower light was checked.</p>` },
        }),
      ),
    );
    expect(posted.map((answer) => answer.status())).toEqual(Array(30).fill(201));
    const named = ((await posted[11]!.json()) as { id: string }).id;
    const reader = await otto.context().newPage();
    const target = reader.locator(`#reply-${named}`);
    /** Once the page has stopped scrolling to the reply. */
    const settled = () =>
      expect
        .poll(() => reader.evaluate(() => new Promise((done) => setTimeout(() => done(scrollY), 150)).then((before) => before === scrollY)))
        .toBe(true);
    const inSight = () =>
      expect
        .poll(() =>
          target.evaluate((element) => element.getBoundingClientRect().top > 0 && element.getBoundingClientRect().bottom < innerHeight),
        )
        .toBe(true);

    // As from a link in a mail: a new tab, straight at the reply.
    await reader.goto(`${topicUrl}#reply-${named}`);
    // A new tab loads the whole app and the topic's first page; on a busy machine (two browser files at once beside
    // the thirty replies' notices) that has taken more than the default 10 s.
    await target.getByText('Log entry 12:').waitFor({ timeout: 30_000 });
    await expect.poll(() => target.getAttribute('class')).toContain('ring-amber-500');
    await settled();
    await inSight();
    await shot(reader, 'discussions-long-topic-desktop');

    await reader.setViewportSize({ width: 390, height: 844 });
    await reader.reload();
    await expect.poll(() => target.getAttribute('class')).toContain('ring-amber-500');
    await settled();
    await inSight();
    expect(await reader.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(reader, 'discussions-long-topic-phone');
    await reader.evaluate(() => window.scrollTo(0, 0));
    await settled();
    await shot(reader, 'discussions-topic-top-phone');
    await reader.goto('/discussions');
    await reader.getByRole('link', { name: /KRNT night crew/ }).waitFor();
    expect(await reader.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(reader, 'discussions-list-phone');
    await reader.getByRole('button', { name: 'New topic' }).click();
    const dialog = reader.getByRole('dialog', { name: 'New topic' });
    await dialog.getByLabel('Title').fill('Identifying this 1950s remote truck');
    await shot(reader, 'discussions-new-topic-phone');
    await reader.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await reader.close();
  }, 120_000);

  it('the keyboard reaches the reply box, with the focus in sight', async () => {
    await mary.goto(topicUrl);
    await mary.getByRole('heading', { name: 'Who remembers the KRNT night crew?', level: 1 }).waitFor();
    const jump = mary.getByRole('button', { name: 'Jump to reply' });
    let reached = false;
    for (let step = 0; step < 40 && !reached; step++) {
      await mary.keyboard.press('Tab');
      reached = await jump.evaluate((element) => element === document.activeElement);
    }
    expect(reached).toBe(true);
    expect(await jump.evaluate((element) => getComputedStyle(element).boxShadow)).not.toBe('none');
    await mary.keyboard.press('Enter');
    const box = mary.getByLabel('Write a reply');
    await expect.poll(() => box.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await box.evaluate((element) => getComputedStyle(element).boxShadow)).not.toBe('none');
    await expect.poll(() => box.evaluate((element) => element.getBoundingClientRect().bottom <= innerHeight)).toBe(true);
    await mary.keyboard.press('Tab');
    expect(await mary.evaluate(() => document.activeElement?.textContent)).toBe('Reply');
  });

  it('a reply edited by its author keeps its history, in a dialog that Escape closes', async () => {
    await mary.goto(topicUrl);
    const mine = mary.getByRole('article', { name: 'Reply by Mary Member' });
    await mine.getByRole('button', { name: 'Edit' }).click();
    await mine.getByLabel('Edit your reply').fill('My uncle Walt was the engineer on that shift, 1958 to 1961.');
    await mine.getByRole('button', { name: 'Save' }).click();
    await mine.getByText('1958 to 1961.').waitFor();
    await otto.goto(topicUrl);
    await otto.getByRole('article', { name: 'Reply by Mary Member' }).getByText('edited').waitFor();
    expect(await otto.getByRole('button', { name: /edit history/ }).count()).toBe(0);
    await mine.getByRole('button', { name: 'edited: show the edit history' }).click();
    const history = mary.getByRole('dialog', { name: 'Edit history' });
    await history.getByText('My uncle Walt was the engineer on that shift.', { exact: true }).waitFor();
    await history.getByText('1958 to 1961.').waitFor();
    await mary.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });
  });

  it('staff close a topic: its reply box gives way, for a reader already there too', async () => {
    await mary.goto(topicUrl);
    await mary.getByLabel('Write a reply').waitFor();
    await staff.goto(topicUrl);
    await staff.getByRole('button', { name: 'Lock' }).click();
    await staff.getByRole('button', { name: 'Unlock' }).waitFor();
    await mary.getByText('This topic is closed').waitFor();
    expect(await mary.getByLabel('Write a reply').count()).toBe(0);
    expect(
      (await mary.request.post(`/api/topics/${topicUrl.split('/').at(-1)}/replies`, { data: { content: '<p>Late</p>' } })).status(),
    ).toBe(409);
    await mary.goto('/discussions');
    await mary
      .getByRole('link', { name: /KRNT night crew/ })
      .locator('..')
      .locator('..')
      .getByText('Closed')
      .waitFor();
  });

  it('staff pin a topic and move it to another category; members find topics by category and by search', async () => {
    await staff.getByRole('button', { name: 'Pin', exact: true }).click();
    await staff.getByRole('button', { name: 'Unpin' }).waitFor();
    await staff.getByLabel('Move to category').selectOption({ label: 'Equipment' });
    await staff.getByRole('button', { name: 'Move' }).click();
    await staff.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Equipment').waitFor();

    // Mary's list follows without a reload.
    await mary.getByRole('link', { name: /^Pinned: Who remembers the KRNT night crew\?/ }).waitFor();
    await mary.getByRole('button', { name: /Equipment\s*1 topic/ }).click();
    await mary.getByRole('link', { name: /KRNT night crew/ }).waitFor();
    await mary.getByRole('button', { name: /Stations and studios\s*0 topics/ }).click();
    await mary.getByText('No topics match.').waitFor();
    await mary.getByRole('button', { name: /All categories/ }).click();
    await mary.getByLabel('Search topics').fill('splice tape');
    await mary.getByRole('link', { name: /KRNT night crew/ }).waitFor();
    await mary.getByLabel('Search topics').fill('television mast');
    await mary.getByText('No topics match.').waitFor();
  });

  it('a reader mutes a topic, and the choice is kept', async () => {
    await otto.goto(topicUrl);
    const watch = otto.getByRole('radiogroup', { name: 'Notifications for this topic' });
    await watch.getByText('Muted', { exact: true }).click();
    await otto.getByText('Nothing about this topic reaches you').waitFor();
    await otto.reload();
    await otto.getByText('Nothing about this topic reaches you').waitFor();
    expect(await watch.getByRole('radio', { name: 'Muted' }).isChecked()).toBe(true);
  });

  it('a reported reply reaches staff in the Reported content tab, linked to its place in the topic', async () => {
    await otto.goto(topicUrl);
    await otto.getByRole('button', { name: 'Report reply by Ada Admin' }).first().click();
    const reason = otto.getByRole('dialog', { name: 'Report this reply?' });
    await reason.getByRole('textbox').fill('Not about broadcasting');
    await reason.getByRole('button', { name: 'Report reply' }).click();
    await reason.waitFor({ state: 'detached' });

    await staff.goto('/admin/reports');
    const entry = staff.getByRole('listitem', { name: 'Reply by Ada Admin' });
    await entry.getByText('Not about broadcasting').waitFor();
    expect(await entry.getByRole('link', { name: /See it in place/ }).getAttribute('href')).toMatch(new RegExp(`^${topicUrl}#reply-`));
  });

  it('a category that holds topics is not deleted; an empty one is', async () => {
    await staff.goto('/admin/discussions');
    staff.once('dialog', (dialog) => void dialog.accept());
    await staff.getByRole('button', { name: 'Delete Equipment' }).click();
    await staff.getByText('Could not delete the category').waitFor();
    await staff.getByRole('button', { name: 'Edit Equipment' }).waitFor();
    staff.once('dialog', (dialog) => void dialog.accept());
    await staff.getByRole('button', { name: 'Delete Stations and studios' }).click();
    await staff.getByRole('button', { name: 'Edit Stations and studios' }).waitFor({ state: 'detached' });
  });
});
