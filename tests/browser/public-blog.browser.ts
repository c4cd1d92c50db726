/**
 * The public blog in a real browser (docs/domain/blog.md#public-blog): a visitor goes from a post to the blog, to a
 * tag's page and to its older page, on the server's pages alone (the app never loads for them); staff restore an
 * earlier revision of a post from its History, and visitors read it so. Screenshots of /blog and a tag's page at
 * 1366 and 390 px.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { registerMember, type Browser as HttpBrowser } from '../support/http';
import { accessibilityViolations, newContext, openAs, person, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;
let admin: HttpBrowser;
const titles: string[] = [];
let newest: { slug: string };

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  admin = (await registerMember(site.url)).browser;
  for (let n = 1; n <= 14; n++) {
    const post = await admin.post('/api/blog', {
      title: `Tower story ${n}`,
      isPublished: true,
      tags: n % 2 === 0 ? ['towers', 'radio'] : ['towers'],
      excerpt: `How the engineers of station ${n} kept the transmitter on the air through the winter.`,
      content: `<p>Story number ${n} of the towers.</p>`,
    });
    expect(post.status).toBe(201);
    titles.unshift(post.body.title);
    newest = post.body;
  }
});

async function visitorPage(width = 1366, height = 900): Promise<Page> {
  const context = await newContext(browser, site.url, { width, height });
  return context.newPage();
}
const listedTitles = (page: Page) => page.locator('main li h2').allTextContents();
/** Whether the app drew anything: a visitor's blog pages are the server's HTML alone. */
const appStarted = (page: Page) => page.evaluate(() => (document.getElementById('root')?.childElementCount ?? 0) > 0);

describe('the public blog', () => {
  it('a visitor goes from a post to the blog, to a tag and to its older posts', async () => {
    const page = await visitorPage();
    await page.goto(`/blog/${newest.slug}`);
    await page.getByRole('heading', { level: 1, name: 'Tower story 14' }).waitFor();
    await page.getByRole('link', { name: 'Browse More Posts' }).click();
    await page.waitForURL('**/blog');
    await page.getByRole('heading', { level: 1, name: 'Blog' }).waitFor();
    expect(await listedTitles(page)).toEqual(titles.slice(0, 12));
    expect(await page.title()).toBe('Blog | Broadcast History Community');
    expect(await appStarted(page)).toBe(false);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('listitem').filter({ hasText: 'Tower story 14' }).getByRole('link', { name: '#radio' }).click();
    await page.waitForURL('**/blog/tag/radio');
    await page.getByRole('heading', { level: 1, name: 'Posts tagged “radio”' }).waitFor();
    expect(await listedTitles(page)).toEqual(titles.filter((_, index) => index % 2 === 0));

    await page.goto('/blog/tag/towers');
    await page.getByRole('link', { name: 'Older posts →' }).click();
    await page.waitForURL(/\/blog\/tag\/towers\?after=/u);
    expect(await listedTitles(page)).toEqual(titles.slice(12));
    await page.getByRole('link', { name: '← Newer posts' }).click();
    await page.waitForURL('**/blog/tag/towers');
    expect(await listedTitles(page)).toEqual(titles.slice(0, 12));
    expect(await appStarted(page)).toBe(false);
    await page.context().close();
  });

  it('looks right on a wide screen and on a phone', async () => {
    for (const [width, height, name] of [
      [1366, 900, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      const page = await visitorPage(width, height);
      await page.goto('/blog');
      await screenshot(page, `public-blog-${name}`);
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.goto('/blog/tag/radio');
      await screenshot(page, `public-blog-tag-${name}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.context().close();
    }
  });

  it('staff restore an earlier revision from the post’s History', async () => {
    const { page: staff } = await openAs(browser, site.url, person('Edith', 'Editor'));
    const { id } = await staff.evaluate(() => fetch('/api/auth/user').then((response) => response.json() as Promise<{ id: string }>));
    expect((await admin.put(`/api/admin/users/${id}/role`, { role: 'staff' })).status).toBe(200);
    const created = await admin.post('/api/blog', { title: 'The first tower', isPublished: true, content: '<p>Built in 1922.</p>' });
    const post = created.body;
    const edit = await staff.request.patch(`/api/blog/${post.id}`, {
      data: { title: 'The first tower, rebuilt', excerpt: '', content: '<p>Rebuilt in 1931.</p>' },
    });
    expect(edit.status()).toBe(200);

    await staff.goto('/admin/blog');
    await staff.getByRole('listitem', { name: 'The first tower, rebuilt' }).getByRole('button', { name: 'History' }).click();
    const history = staff.getByRole('dialog');
    const revisions = history.getByRole('list', { name: 'Revisions' }).getByRole('listitem');
    await revisions.first().waitFor();
    expect(await revisions.count()).toBe(2);
    // Newest first: the edit by Edith Editor, then the draft by the admin.
    await revisions.first().getByText('Edith Editor').waitFor();
    const older = revisions.nth(1);
    await older.getByText('The first tower', { exact: true }).waitFor();
    await older.getByRole('button', { name: 'Preview' }).click();
    await older.getByRole('region', { name: 'Preview' }).locator('.blog-content').getByText('Built in 1922.').waitFor();
    await screenshot(staff, 'blog-history');
    expect(await accessibilityViolations(staff)).toEqual([]);
    await older.getByRole('button', { name: 'Restore' }).click();
    await history.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
    await staff.getByText('Revision restored').waitFor();
    await staff.getByRole('listitem', { name: 'The first tower' }).waitFor();

    // A member's tag page is the app's, its cards' tags leading to the app's tag pages.
    await staff.goto('/blog/tag/radio');
    await staff.getByRole('heading', { level: 1, name: 'Posts tagged “radio”' }).waitFor();
    await staff.getByRole('article', { name: 'Tower story 14' }).getByRole('link', { name: '#towers' }).click();
    await staff.getByRole('heading', { level: 1, name: 'Posts tagged “towers”' }).waitFor();
    await staff.getByRole('article', { name: 'Tower story 1', exact: true }).waitFor();
    expect(await staff.getByRole('article', { name: 'Tower story 12' }).count()).toBe(1);

    const reader = await visitorPage();
    await reader.goto(`/blog/${post.slug}`);
    await reader.getByRole('heading', { level: 1, name: 'The first tower' }).waitFor();
    await reader.locator('.blog-content').getByText('Built in 1922.').waitFor();
    await reader.context().close();
  });
});
