/** The blog in real browsers: staff write and manage, a member's open list reorders live. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestSite, type TestSite } from '../support/site';
import { accessibilityViolations, launchChromium, openAs, person, screenshot } from '../support/browser';

let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
let staff: Page;
let member: Page;

async function open(account: ReturnType<typeof person>) {
  const { context, page } = await openAs(browser, site.url, account);
  contexts.push(context);
  return page;
}

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' });
  browser = await launchChromium();
  staff = await open(person('Edith', 'Editor'));
  member = await open(person('Rita', 'Reader'));
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await site?.close();
});

async function createPost(title: string, content: string) {
  await staff.getByRole('button', { name: 'New Blog Post' }).click();
  const dialog = staff.getByRole('dialog');
  const save = dialog.getByRole('button', { name: 'Create Post' });
  expect(await save.isDisabled()).toBe(true);
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content').fill(content);
  await save.click();
  await staff.getByText('Blog post created successfully').waitFor();
}

describe('blog', () => {
  it('lets staff draft, edit, publish, pin and feature while a member’s list follows live', async () => {
    await member.goto('/blog');
    await member.getByText('No blog posts yet').waitFor();

    await staff.goto('/admin/blog');
    await staff.getByText('No blog posts yet').waitFor();
    await staff.getByText('Create your first blog post to get started').waitFor();
    await createPost('The overnight shift', '<p>Five announcers remember.</p><script>window.__pwned = 1</script>');
    await createPost('Towers of 1948', '<h2>Steel</h2><p>The crews worked through two winters.</p>');

    const first = staff.getByRole('listitem', { name: 'The overnight shift' });
    await first.getByRole('button', { name: 'Edit' }).click();
    await staff.getByRole('dialog').getByLabel('Excerpt').fill('Voices that kept the night company.');
    await staff.getByRole('dialog').getByRole('button', { name: 'Update Post' }).click();
    await staff.getByText('Blog post updated successfully').waitFor();

    await first.getByRole('button', { name: 'Publish' }).click();
    await staff.getByText('Blog post published').waitFor();
    await member.getByRole('article', { name: 'The overnight shift' }).waitFor();

    const second = staff.getByRole('listitem', { name: 'Towers of 1948' });
    await second.getByRole('button', { name: 'Publish' }).click();
    await member.getByRole('article', { name: 'Towers of 1948' }).waitFor();
    await second.getByRole('button', { name: 'Feature' }).click();
    await member.getByRole('region', { name: 'Featured Posts' }).getByRole('article', { name: 'Towers of 1948' }).waitFor();
    await first.getByRole('button', { name: 'Pin' }).click();
    await member.getByRole('region', { name: 'Pinned Posts' }).getByRole('article', { name: 'The overnight shift' }).waitFor();
    await screenshot(member, 'blog-list');
    expect(await accessibilityViolations(member)).toEqual([]);
    await screenshot(staff, 'blog-management');
  });

  it('shows a post with its author, dates, excerpt and safe content', async () => {
    await member.getByRole('article', { name: 'The overnight shift' }).getByRole('link', { name: /Read full post/ }).click();
    await member.getByRole('heading', { level: 1, name: 'The overnight shift' }).waitFor();
    expect(await member.title()).toBe('The overnight shift | Broadcast History Community');
    expect(await member.getByText('Edith Editor').count()).toBe(1);
    expect(await member.getByText('Voices that kept the night company.').count()).toBe(1);
    expect(await member.getByText('Five announcers remember.').count()).toBe(1);
    expect(await member.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await member.locator('article script').count()).toBe(0);
    await screenshot(member, 'blog-post');
    await member.getByRole('link', { name: 'Browse More Posts' }).click();
    await member.waitForURL(/\/blog$/);
  });

  it('says when a post does not exist', async () => {
    await member.goto('/blog/00000000-0000-4000-8000-000000000000');
    await member.getByText('This blog post does not exist or was removed.').waitFor();
    await member.getByRole('link', { name: 'Back to Blog' }).waitFor();
  });

  it('serves a well-formed RSS feed', async () => {
    const xml = await (await fetch(`${site.url}/rss`)).text();
    const parsed = await member.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return { error: doc.querySelector('parsererror')?.textContent ?? null, titles: [...doc.querySelectorAll('item > title')].map((t) => t.textContent) };
    }, xml);
    expect(parsed.error).toBeNull();
    expect(parsed.titles.sort()).toEqual(['The overnight shift', 'Towers of 1948']);
  });
});
