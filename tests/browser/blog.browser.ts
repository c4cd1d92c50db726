/** The blog in real browsers: staff write and manage, a member's open list reorders live. */
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { registerMember } from '../support/http';
import { accessibilityViolations, siteInBrowser, openAs, person, screenshot } from '../support/browser';

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

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  // The first account is the admin; the writer here holds the staff role.
  const admin = (await registerMember(site.url)).browser;
  staff = await open(person('Edith', 'Editor'));
  const { id } = await staff.evaluate(() => fetch('/api/auth/user').then((response) => response.json() as Promise<{ id: string }>));
  expect((await admin.put(`/api/admin/users/${id}/role`, { role: 'staff' })).status).toBe(200);
  member = await open(person('Rita', 'Reader'));
});

const dialog = () => staff.getByRole('dialog');
const editor = () => dialog().getByRole('textbox', { name: 'Content' });

/** Writes `content` in the editor as an author types it (Markdown shortcuts included; a line break is Enter). */
async function createPost(title: string, content: string) {
  await staff.getByRole('button', { name: 'New Blog Post' }).click();
  const save = dialog().getByRole('button', { name: 'Create Post' });
  expect(await save.isDisabled()).toBe(true);
  await dialog().getByLabel('Title').fill(title);
  expect(await save.isDisabled()).toBe(true);
  await editor().click();
  await staff.keyboard.type(content);
  await save.click();
  await staff.getByText('Blog post created successfully').waitFor();
}

describe('blog', () => {
  it('lets staff draft a post in the editor; what looks like markup is kept as text', async () => {
    await member.goto('/blog');
    await member.getByText('No blog posts yet').waitFor();

    await staff.goto('/admin/blog');
    await staff.getByText('No blog posts yet').waitFor();
    await staff.getByText('Create your first blog post to get started').waitFor();

    await staff.getByRole('button', { name: 'New Blog Post' }).click();
    await dialog().getByLabel('Title').fill('The overnight shift');
    await editor().click();
    await staff.keyboard.type('## Five announcers remember\n- The all-night record show\nThe farm report at five\n\n');
    await staff.keyboard.type('<script>window.__pwned = 1</script>');
    await editor().getByRole('heading', { level: 2, name: 'Five announcers remember' }).waitFor();
    expect(await editor().getByRole('listitem').allTextContents()).toEqual(['The all-night record show', 'The farm report at five']);
    await screenshot(staff, 'blog-editor');
    expect(await accessibilityViolations(staff)).toEqual([]);
    await dialog().getByRole('button', { name: 'Create Post' }).click();
    await staff.getByText('Blog post created successfully').waitFor();
    await staff.getByRole('listitem', { name: 'The overnight shift' }).getByText('Draft').waitFor();
    expect(await staff.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('says why a save failed and keeps the dialog open', async () => {
    await staff.getByRole('button', { name: 'New Blog Post' }).click();
    await dialog().getByLabel('Title').fill('A'.repeat(256));
    await editor().click();
    await staff.keyboard.type('A title too long for the list.');
    await dialog().getByRole('button', { name: 'Create Post' }).click();
    const toast = staff.getByRole('alert').filter({ hasText: 'Failed to create blog post' });
    await toast.getByText('Title must be at most 255 characters').waitFor();
    expect(await dialog().getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    expect(await staff.getByRole('listitem', { name: 'A'.repeat(256) }).count()).toBe(0);
  });

  it('edits, publishes, pins and features while a member’s open list follows live', async () => {
    await createPost('Towers of 1948', '## Steel\nThe crews worked through two winters.');
    await createPost('Jingles we remember', 'Call letters set to music.');

    const first = staff.getByRole('listitem', { name: 'The overnight shift' });
    await first.getByRole('button', { name: 'Edit' }).click();
    await dialog().getByLabel('Excerpt').fill('Voices that kept the night company.');
    await editor().click();
    await staff.keyboard.press('Control+a');
    await staff.keyboard.press('Delete');
    expect(await dialog().getByRole('button', { name: 'Update Post' }).isDisabled()).toBe(true);
    await staff.keyboard.type('Five announcers remember.\nthe station archive');
    await staff.keyboard.press('Shift+Home');
    await staff.keyboard.press('Control+k');
    await staff.getByRole('dialog', { name: 'Add link' }).getByLabel('Link address').fill('https://archive.example/overnight');
    await staff.keyboard.press('Enter');
    await editor().getByRole('link', { name: 'the station archive' }).waitFor();
    // Pasted markup keeps only what a post may hold: no script, no handler.
    await staff.keyboard.press('End');
    await editor().evaluate((box) => {
      const data = new DataTransfer();
      data.setData('text/html', '<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2">');
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    expect(await editor().locator('script, [onerror]').count()).toBe(0);
    await dialog().getByRole('button', { name: 'Update Post' }).click();
    await staff.getByText('Blog post updated successfully').waitFor();
    await first.getByText('Voices that kept the night company.').waitFor();

    await first.getByRole('button', { name: 'Publish', exact: true }).click();
    await staff.getByText('Blog post published').waitFor();
    await member.getByRole('article', { name: 'The overnight shift' }).waitFor();
    expect(await member.getByRole('region', { name: 'Latest Posts' }).getByRole('article').count()).toBe(1);

    const towers = staff.getByRole('listitem', { name: 'Towers of 1948' });
    await towers.getByRole('button', { name: 'Publish', exact: true }).click();
    await member.getByRole('article', { name: 'Towers of 1948' }).waitFor();
    await staff.getByRole('listitem', { name: 'Jingles we remember' }).getByRole('button', { name: 'Publish', exact: true }).click();
    await member.getByRole('article', { name: 'Jingles we remember' }).waitFor();
    // Newest publication first.
    await expect
      .poll(() => member.getByRole('region', { name: 'Latest Posts' }).locator('h3').allTextContents())
      .toEqual(['Jingles we remember', 'Towers of 1948', 'The overnight shift']);

    await towers.getByRole('button', { name: 'Feature', exact: true }).click();
    await staff.getByText('Blog post featured').waitFor();
    await member
      .getByRole('region', { name: 'Featured Posts' })
      .getByRole('article', { name: 'Towers of 1948' })
      .getByText('Featured')
      .waitFor();
    await first.getByRole('button', { name: 'Pin', exact: true }).click();
    await staff.getByText('Blog post pinned').waitFor();
    await member
      .getByRole('region', { name: 'Pinned Posts' })
      .getByRole('article', { name: 'The overnight shift' })
      .getByText('Pinned')
      .waitFor();
    await expect
      .poll(() => member.locator('section[aria-labelledby$="-posts"] > h2').allTextContents())
      .toEqual(['Pinned Posts', 'Featured Posts', 'Latest Posts']);
    expect(await member.getByRole('region', { name: 'Latest Posts' }).locator('h3').allTextContents()).toEqual(['Jingles we remember']);
    await screenshot(member, 'blog-list');
    expect(await accessibilityViolations(member)).toEqual([]);
    await screenshot(staff, 'blog-management');

    await first.getByRole('button', { name: 'Unpin' }).click();
    await staff.getByText('Blog post unpinned').waitFor();
    await member.getByRole('region', { name: 'Latest Posts' }).getByRole('article', { name: 'The overnight shift' }).waitFor();
    expect(await member.getByRole('region', { name: 'Pinned Posts' }).count()).toBe(0);
    await first.getByRole('button', { name: 'Pin', exact: true }).click();
    await member.getByRole('region', { name: 'Pinned Posts' }).waitFor();
  });

  it('searches the list on title or excerpt', async () => {
    const search = member.getByLabel('Search blog posts');
    await search.fill('night company');
    await expect.poll(() => member.getByRole('article').allTextContents()).toHaveLength(1);
    await member.getByRole('article', { name: 'The overnight shift' }).waitFor();
    await search.fill('TOWERS');
    await expect.poll(() => member.getByRole('article').count()).toBe(1);
    await member.getByRole('article', { name: 'Towers of 1948' }).waitFor();
    await search.fill('no such words');
    // No match is not an empty blog.
    await member.getByText('No blog posts match “no such words”').waitFor();
    expect(await member.getByText('No blog posts yet').count()).toBe(0);
    await search.fill('');
    await expect.poll(() => member.getByRole('article').count()).toBe(3);
  });

  it('shows a post with badges, author, dates, excerpt, rendered and safe content, and share', async () => {
    await member
      .getByRole('article', { name: 'The overnight shift' })
      .getByRole('link', { name: /Read full post/ })
      .click();
    const post = member.getByRole('article');
    await member.getByRole('heading', { level: 1, name: 'The overnight shift' }).waitFor();
    expect(await member.title()).toBe('The overnight shift | Broadcast History Community');
    await post.getByText('Pinned', { exact: true }).waitFor();
    await post.getByText('Edith Editor').waitFor();
    await post.getByText('staff', { exact: true }).waitFor();
    await post.getByText(/^Published /).waitFor();
    await post.getByText(/Updated /).waitFor();
    expect(await post.locator('blockquote').textContent()).toBe('Voices that kept the night company.');
    expect(await post.getByRole('link', { name: 'the station archive' }).getAttribute('href')).toBe('https://archive.example/overnight');
    await post.getByText('Five announcers remember.').waitFor();
    expect(await member.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await post.locator('script').count()).toBe(0);
    expect(await member.content()).not.toContain('__pwned');

    await post.getByRole('button', { name: 'Copy link' }).click();
    await member.getByText('Link copied!').waitFor();
    // The share popup is caught before it leaves for the network's site.
    await member.evaluate(() => {
      window.open = (url, _target, features) => {
        (window as { opened?: string[] }).opened = [String(url), String(features)];
        return null;
      };
    });
    await post.getByRole('button', { name: 'X', exact: true }).click();
    const [opened, features] = (await member.evaluate(() => (window as { opened?: string[] }).opened))!;
    const shared = new URL(opened!);
    expect(shared.searchParams.get('url')).toBe(member.url());
    expect(shared.searchParams.get('text')).toBe('The overnight shift: Voices that kept the night company.');
    expect(features).toBe('width=626,height=436');

    await screenshot(member, 'blog-post');
    expect(await accessibilityViolations(member)).toEqual([]);
    await post.getByRole('link', { name: 'Browse More Posts' }).click();
    await member.waitForURL(/\/blog$/);
  });

  it('renders the post’s own HTML and shows no Updated date for a post never edited', async () => {
    await member
      .getByRole('article', { name: 'Towers of 1948' })
      .getByRole('link', { name: /Read full post/ })
      .click();
    await member.getByRole('heading', { level: 2, name: 'Steel' }).waitFor();
    await member.getByRole('article').getByText('Featured', { exact: true }).waitFor();
    expect(await member.getByText(/Updated /).count()).toBe(0);
    // Its excerpt, written from so short a text, would only repeat it: the text shows once.
    expect(await member.locator('blockquote').count()).toBe(0);
    expect(await member.getByText('The crews worked through two winters.').count()).toBe(1);
    await member.goBack();
  });

  it('says when a post does not exist or is a draft', async () => {
    await member.goto('/blog/00000000-0000-4000-8000-000000000000');
    await member.getByText('This blog post does not exist or was removed.').waitFor();
    await screenshot(member, 'blog-post-missing');
    await member.getByRole('link', { name: 'Back to Blog' }).click();
    await member.waitForURL(/\/blog$/);
    await member.goto('/blog/not-a-post');
    await member.getByText('This blog post does not exist or was removed.').waitFor();
    const draft = await staff.evaluate(() =>
      fetch('/api/blog', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Secret draft', content: '<p>Not yet.</p>' }),
      }).then((response) => response.json() as Promise<{ id: string }>),
    );
    await member.goto(`/blog/${draft.id}`);
    await member.getByText('This blog post does not exist or was removed.').waitFor();
    expect(await member.getByText('Secret draft').count()).toBe(0);
  });

  it('removes a deleted post from the member’s open list', async () => {
    await member.goto('/blog');
    await member.getByRole('article', { name: 'Jingles we remember' }).waitFor();
    await staff.getByRole('listitem', { name: 'Jingles we remember' }).getByRole('button', { name: 'Delete' }).click();
    await staff.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await staff.getByText('Blog post deleted').waitFor();
    await member.getByRole('article', { name: 'Jingles we remember' }).waitFor({ state: 'detached' });
    // The staff list is refetched after the delete and again on the blog:changed push; either leaves it out.
    await staff.getByRole('listitem', { name: 'Jingles we remember' }).waitFor({ state: 'detached' });
  });

  it('serves a well-formed RSS feed of the published posts', async () => {
    const xml = await (await fetch(`${site.url}/rss`)).text();
    const parsed = await member.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.nodeName,
        version: doc.documentElement.getAttribute('version'),
        titles: [...doc.querySelectorAll('channel > item > title')].map((t) => t.textContent),
        links: [...doc.querySelectorAll('channel > item > link')].map((t) => t.textContent),
      };
    }, xml);
    expect(parsed.error).toBeNull();
    expect(parsed).toMatchObject({ root: 'rss', version: '2.0' });
    expect(parsed.titles.sort()).toEqual(['The overnight shift', 'Towers of 1948']);
    // Each item links to its post's address, its slug.
    for (const link of parsed.links) expect(link).toMatch(new RegExp(`^${site.services.config.publicUrl}/blog/[a-z0-9]+(?:-[a-z0-9]+)*$`));
  });
});
