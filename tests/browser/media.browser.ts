/**
 * A photo in a feed post, in a real browser: attached from the composer (uploaded as the member chooses it), shown
 * in the post with its width and height, so the card keeps its place while the picture loads; and a recording with
 * a player. A picture put into a blog post by staff at the blog's size, a post's cover, and a member's event with
 * its cover image, each shown with its size.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, openAs, person, recordPolicyViolations, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let violations: string[];
let memberContext: BrowserContext | undefined;

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 90, g: 60, b: 30 } } })
    .jpeg()
    .toBuffer();

/** Chooses `file` through the button named `button` (a FileTrigger), as a person would: press, then pick in the dialog. */
async function choose(on: Page, button: ReturnType<Page['getByRole']>, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = on.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(file);
}

/** The picture's width and height attributes, and that it loaded at that size. */
async function shownSize(picture: ReturnType<Page['locator']>) {
  await picture.waitFor();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  return picture.evaluate((img: HTMLImageElement) => ({
    width: img.getAttribute('width'),
    height: img.getAttribute('height'),
    natural: `${img.naturalWidth}x${img.naturalHeight}`,
    src: img.getAttribute('src'),
  }));
}

/** A screenshot at the desktop's width and at a phone's (390), and that nothing is wider than the phone's screen. */
async function screenshotsAtBothSizes(on: Page, name: string) {
  await screenshot(on, `${name}-desktop`);
  await on.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => on.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(on, `${name}-390`);
  await on.setViewportSize({ width: 1280, height: 800 });
}
const directory = mkdtempSync(join(tmpdir(), 'bhc-media-e2e-'));

siteInBrowser(
  { RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000', RATE_LIMIT_EVENT_MAX: '1000', MEDIA_DIR: directory },
  async (started, chromium) => {
    site = started;
    browser = chromium;
    ({ context, page } = await openAs(browser, site.url, person('Ada', 'Admin')));
    violations = recordPolicyViolations(context);
    await page.getByRole('heading', { name: 'Broadcast History Newsfeed' }).waitFor();
  },
);
afterAll(async () => {
  await memberContext?.close();
  await context?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('media in the feed', () => {
  it('attaches a photo in the composer and shows it in the post with its size', async () => {
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 90, g: 60, b: 30 } } })
      .jpeg()
      .toBuffer();
    await page.getByLabel('Share something with the community').click();
    await page.getByLabel('Share something with the community').fill('The control room, 1962');
    await page.locator('#composer-file').setInputFiles({ name: 'control-room.jpg', mimeType: 'image/jpeg', buffer: photo });
    const preview = page.getByRole('img', { name: 'Attached photo' });
    await preview.waitFor();
    expect(await page.getByRole('group', { name: 'Media type' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Post', exact: true }).click();

    const card = page.getByRole('article').filter({ hasText: 'The control room, 1962' });
    const shown = card.getByRole('img', { name: 'Photo shared with the post' });
    await shown.waitFor();
    expect([await shown.getAttribute('width'), await shown.getAttribute('height')]).toEqual(['800', '600']);
    expect(await shown.getAttribute('src')).toMatch(/^\/media\/[0-9a-f-]{36}\/feed\.webp$/);
    await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(800);
    await screenshot(page, 'feed-post-with-photo');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('attaches a recording and plays it from the post', async () => {
    const frame = Buffer.alloc(417);
    frame.set([0xff, 0xfb, 0x90, 0x64]);
    await page.getByLabel('Share something with the community').click();
    await page.getByLabel('Share something with the community').fill('An aircheck from the overnight show');
    await page
      .locator('#composer-file')
      .setInputFiles({ name: 'aircheck.mp3', mimeType: 'audio/mpeg', buffer: Buffer.concat(Array.from({ length: 40 }, () => frame)) });
    await page.getByLabel('Attached recording').waitFor();
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    const player = page.getByRole('article').filter({ hasText: 'An aircheck' }).getByLabel('Recording shared with the post');
    await player.waitFor();
    expect(await player.getAttribute('src')).toMatch(/^\/media\/[0-9a-f-]{36}\/audio\.mp3$/);
  });

  it('says why a file is refused, and the composer stays as it was', async () => {
    await page.getByLabel('Share something with the community').click();
    await page
      .locator('#composer-file')
      .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await page.getByText('This file is not one we accept', { exact: false }).first().waitFor();
    expect(await page.getByRole('img', { name: 'Attached photo' }).count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Media type' }).count()).toBe(1);
  });
});

describe('pictures in blog posts', () => {
  it('lets staff put a picture in at the cursor at the blog’s size, with alt text, and a cover; the published post shows both with their size', async () => {
    await page.goto('/admin/blog');
    await page.getByRole('button', { name: 'New Blog Post' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('The transmitter hall');
    const content = dialog.getByRole('textbox', { name: 'Content' });
    await content.click();
    await page.keyboard.type('The hall as it stood in 1962.\nThe fire came later.');
    // The cursor at the end of the first paragraph.
    await content.getByText('The hall as it stood in 1962.').click();
    await page.keyboard.press('End');
    await choose(page, dialog.getByRole('button', { name: 'Picture' }), {
      name: 'transmitter-hall_1962.jpg',
      mimeType: 'image/jpeg',
      buffer: await photo(2400, 1600),
    });
    const alt = page.getByRole('dialog', { name: 'Add a picture' }).getByLabel('Alt text');
    await alt.waitFor();
    expect(await alt.inputValue()).toBe('transmitter hall 1962');
    await alt.fill('The transmitter hall in 1962');
    await page.getByRole('button', { name: 'Add picture' }).click();
    const inserted = content.getByRole('img', { name: 'The transmitter hall in 1962' });
    await inserted.waitFor();
    expect(await inserted.evaluate((img) => [img.getAttribute('width'), img.getAttribute('height'), img.getAttribute('src')])).toEqual([
      '1600',
      '1067',
      expect.stringMatching(/^\/media\/[0-9a-f-]{36}\/blog\.webp$/u),
    ]);
    // In a paragraph of its own, between the two.
    expect(
      await content
        .locator('p')
        .evaluateAll((paragraphs) => paragraphs.map((p) => p.querySelector('img[src^="/media/"]')?.getAttribute('alt') ?? p.textContent)),
    ).toEqual(['The hall as it stood in 1962.', 'The transmitter hall in 1962', 'The fire came later.']);

    await choose(page, dialog.getByRole('button', { name: 'Choose cover image' }), {
      name: 'tower.jpg',
      mimeType: 'image/jpeg',
      buffer: await photo(2000, 1000),
    });
    await dialog.getByRole('img', { name: 'Cover image' }).waitFor();
    await dialog.getByRole('group', { name: 'Cover image' }).scrollIntoViewIfNeeded();
    await screenshotsAtBothSizes(page, 'blog-editor-cover');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    await page.getByText('Blog post created successfully').waitFor();
    const listed = page.getByRole('listitem', { name: 'The transmitter hall' });
    await listed.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Blog post published').waitFor();

    await page.goto('/blog');
    const card = page.getByRole('article', { name: 'The transmitter hall' });
    const cardCover = await shownSize(card.locator('img').first());
    expect(cardCover).toMatchObject({ width: '1600', height: '800', natural: '800x400' });
    expect(cardCover.src).toMatch(/^\/media\/[0-9a-f-]{36}\/feed\.webp$/u);
    await card.getByRole('link', { name: /Read full post/ }).click();
    await page.getByRole('heading', { level: 1, name: 'The transmitter hall' }).waitFor();
    const inline = await shownSize(page.getByRole('img', { name: 'The transmitter hall in 1962' }));
    expect(inline).toMatchObject({ width: '1600', height: '1067', natural: '1600x1067' });
    const cover = await shownSize(page.locator('article > img').first());
    expect(cover).toMatchObject({ width: '1600', height: '800', natural: '1600x800' });
    expect(cover.src).toMatch(/^\/media\/[0-9a-f-]{36}\/blog\.webp$/u);
    // Laid out at the page's width in its own proportions, not stretched.
    const box = await page.getByRole('img', { name: 'The transmitter hall in 1962' }).boundingBox();
    expect(Math.abs(box!.width / box!.height - 1600 / 1067)).toBeLessThan(0.02);
    await screenshotsAtBothSizes(page, 'blog-post-with-pictures');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(violations).toEqual([]);
  });
});

describe('an event’s cover image', () => {
  it('lets a member create an event with a cover; its page, dialog and the calendar’s list show it with its size', async () => {
    const opened = await openAs(browser, site.url, person('Morris', 'Member'), '/calendar');
    memberContext = opened.context;
    const member = opened.page;
    await member.getByRole('button', { name: 'New Event' }).click();
    const dialog = member.getByRole('dialog');
    await dialog.getByLabel('Title', { exact: true }).fill('Tower open house');
    const start = new Date(Date.now() + 7 * 24 * 3600 * 1000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await dialog
      .getByLabel('Start', { exact: true })
      .fill(`${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}T18:00`);
    await choose(member, dialog.getByRole('button', { name: 'Choose cover image' }), {
      name: 'open-house.jpg',
      mimeType: 'image/jpeg',
      buffer: await photo(1600, 1200),
    });
    await dialog.getByRole('img', { name: 'Cover image' }).waitFor();
    // Taken away and chosen again: the form sends the one shown.
    await dialog.getByRole('button', { name: 'Remove cover image' }).click();
    expect(await dialog.getByRole('img', { name: 'Cover image' }).count()).toBe(0);
    await choose(member, dialog.getByRole('button', { name: 'Choose cover image' }), {
      name: 'open-house.jpg',
      mimeType: 'image/jpeg',
      buffer: await photo(1600, 1200),
    });
    await dialog.getByRole('img', { name: 'Cover image' }).waitFor();
    await dialog.getByRole('group', { name: 'Cover image' }).scrollIntoViewIfNeeded();
    await screenshotsAtBothSizes(member, 'event-form-cover');
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    await member.getByText('Your event has been created successfully.').last().waitFor();

    const id = (await site.services.store.collection('event_calendar').findOne({ title: 'Tower open house' }))!._id;
    await member.goto(`/events/${id}`);
    await member.getByRole('heading', { level: 1, name: 'Tower open house' }).waitFor();
    const cover = await shownSize(member.locator('article img').first());
    expect(cover).toMatchObject({ width: '800', height: '600', natural: '800x600' });
    expect(cover.src).toMatch(/^\/media\/[0-9a-f-]{36}\/feed\.webp$/u);
    await screenshotsAtBothSizes(member, 'event-page-with-cover');
    expect(await accessibilityViolations(member)).toEqual([]);

    await member.goto('/calendar');
    await member.getByRole('button', { name: 'List', exact: true }).click();
    const entry = member.getByRole('article', { name: 'Tower open house' });
    const thumbnail = await shownSize(entry.locator('img'));
    expect(thumbnail).toMatchObject({ width: '800', height: '600' });
    const thumbBox = await entry.locator('img').boundingBox();
    expect([Math.round(thumbBox!.width), Math.round(thumbBox!.height)]).toEqual([96, 64]);
    await entry.getByRole('button', { name: 'Tower open house' }).click();
    const details = member.getByRole('dialog');
    expect(await shownSize(details.locator('img').first())).toMatchObject({ width: '800', height: '600' });
  });
});
