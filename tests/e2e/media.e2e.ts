/**
 * A photo in a feed post, in a real browser: attached from the composer (uploaded as the member chooses it), shown
 * in the post with its width and height, so the card keeps its place while the picture loads; and a recording with
 * a player.
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
const directory = mkdtempSync(join(tmpdir(), 'bhc-media-e2e-'));

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000', MEDIA_DIR: directory }, async (started, chromium) => {
  site = started;
  browser = chromium;
  ({ context, page } = await openAs(browser, site.url, person('Ada', 'Admin')));
  violations = recordPolicyViolations(context);
  await page.getByRole('heading', { name: 'Broadcast History Newsfeed' }).waitFor();
});
afterAll(async () => {
  await context?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('media in the feed', () => {
  it('attaches a photo in the composer and shows it in the post with its size', async () => {
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 90, g: 60, b: 30 } } }).jpeg().toBuffer();
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
    await page.locator('#composer-file').setInputFiles({ name: 'aircheck.mp3', mimeType: 'audio/mpeg', buffer: Buffer.concat(Array.from({ length: 40 }, () => frame)) });
    await page.getByLabel('Attached recording').waitFor();
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    const player = page.getByRole('article').filter({ hasText: 'An aircheck' }).getByLabel('Recording shared with the post');
    await player.waitFor();
    expect(await player.getAttribute('src')).toMatch(/^\/media\/[0-9a-f-]{36}\/audio\.mp3$/);
  });

  it('says why a file is refused, and the composer stays as it was', async () => {
    await page.getByLabel('Share something with the community').click();
    await page.locator('#composer-file').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await page.getByText('This file is not one we accept', { exact: false }).first().waitFor();
    expect(await page.getByRole('img', { name: 'Attached photo' }).count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Media type' }).count()).toBe(1);
  });
});
