/**
 * Own feed posts in a real browser (docs/domain/feed.md#editing): a member edits an approved post from its menu and
 * sees "Edit awaiting review" while everyone else reads the approved text; staff approve the edit in the moderation
 * queue and the new text shows, marked "Edited"; the history lists both texts; a notification of a comment lands on
 * /posts/{id} with the comment scrolled into view; staff pin from the menu with the keyboard; the author deletes after
 * a confirmation; a visitor reads a public post's page, and an unknown post says so. Screenshots at 1366 and 390 px.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, newContext, openAs, person, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;
let staff: Page;
let member: Page;
let other: Page;
const contexts: BrowserContext[] = [];
const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  // The first account is the admin.
  for (const account of [person('Ada', 'Admin'), person('Mary', 'Member'), person('Otto', 'Other')]) {
    const opened = await openAs(browser, site.url, account, '/');
    contexts.push(opened.context);
    await opened.page.setViewportSize(DESKTOP);
  }
  const [first, second, third] = contexts.map((context) => context.pages()[0]!);
  [staff, member, other] = [first!, second!, third!];
});

/** A call of the API as the page's member (their cookies; JSON, so the same-origin rule lets it through). */
async function api<T = { id: string }>(page: Page, method: 'POST' | 'PUT', path: string, data: unknown = {}): Promise<T> {
  const response = await page.request.fetch(path, { method, data, headers: { 'content-type': 'application/json' } });
  expect(response.status(), `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

/** A post of Mary's, approved by staff. */
async function approvedPost(content: string) {
  const { id } = await api(member, 'POST', '/api/posts', { content, tags: ['wls'] });
  await api(staff, 'PUT', `/api/admin/posts/${id}/approve`);
  return id;
}

const card = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text });
const menuOf = (page: Page, text: string) => card(page, text).getByRole('button', { name: /^Actions for the post by/ });

describe('own posts', () => {
  it('holds a member’s edit for review, then shows it once staff approve it', async () => {
    const id = await approvedPost('The WLS tower stood 600 feet tall');
    await member.goto('/');
    await card(member, '600 feet').waitFor();
    await menuOf(member, '600 feet').click();
    await member.getByRole('menuitem', { name: 'Edit' }).click();
    const form = member.getByRole('form', { name: 'Edit post' });
    await form.getByText('Staff review edits; the post keeps its current text until then.').waitFor();

    // A refused edit keeps what was typed, with the reason under the field.
    await form.getByLabel('Post text').fill('The WLS tower stood 653 feet tall');
    await form.getByLabel('Tags').fill(Array.from({ length: 11 }, (_, i) => `t${i}`).join(' '));
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('At most 10 tags').waitFor();
    expect(await form.getByLabel('Post text').inputValue()).toBe('The WLS tower stood 653 feet tall');
    await member.setViewportSize(PHONE);
    await screenshot(member, 'own-posts-edit-refused-390');
    await member.setViewportSize(DESKTOP);
    await screenshot(member, 'own-posts-edit-refused-1366');

    await form.getByLabel('Tags').fill('#wls towers');
    await form.getByRole('button', { name: 'Save' }).click();
    const mine = card(member, '600 feet');
    await mine.getByText('Edit awaiting review').waitFor();
    expect(await mine.getByRole('form').count()).toBe(0);
    await screenshot(member, 'own-posts-awaiting-review-1366');
    await member.setViewportSize(PHONE);
    await screenshot(member, 'own-posts-awaiting-review-390');
    await member.setViewportSize(DESKTOP);

    // Everyone else reads the approved text, with no mark.
    await other.goto(`/posts/${id}`);
    await card(other, '600 feet').waitFor();
    expect(await other.getByText('Edit awaiting review').count()).toBe(0);
    expect(await other.getByText('653 feet').count()).toBe(0);

    // Staff see the edit in the queue, told apart from new posts, and approve it.
    await staff.goto('/admin');
    const queued = staff.getByRole('listitem').filter({ hasText: 'Edit of a published post' });
    await queued.waitFor();
    expect(await queued.textContent()).toContain('653 feet');
    expect(await queued.textContent()).toContain('600 feet');
    await screenshot(staff, 'own-posts-queue-edit-1366');
    await queued.getByRole('button', { name: 'Approve' }).click();
    await staff.getByText('All posts have been reviewed!').waitFor();

    // The new text reaches the author's feed and the other reader's open page live.
    const edited = card(member, '653 feet');
    await edited.waitFor();
    await edited.getByText('Edited', { exact: true }).waitFor();
    expect(await edited.getByText('Edit awaiting review').count()).toBe(0);
    await card(other, '653 feet').waitFor();

    // The history lists both texts, the new one shown now.
    await menuOf(member, '653 feet').click();
    await member.getByRole('menuitem', { name: 'History' }).click();
    const history = member.getByRole('dialog', { name: 'History of this post' });
    const versions = history.getByRole('list', { name: 'Versions, newest first' }).getByRole('listitem');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.first().textContent()).toContain('Shown now');
    expect(await versions.nth(1).textContent()).toContain('Original');
    await screenshot(member, 'own-posts-history-1366');
    await member.setViewportSize(PHONE);
    await screenshot(member, 'own-posts-history-390');
    await member.setViewportSize(DESKTOP);
    await history.getByRole('button', { name: 'Close' }).click();
  });

  it('leads a notification of a comment to the post’s page, the comment scrolled into view and marked', async () => {
    const id = await approvedPost('Ask me about the night of the 1938 broadcast');
    // Enough comments that the one to find is below the fold on a phone.
    for (let n = 1; n <= 8; n++)
      await api(other, 'POST', `/api/posts/${id}/comments`, { content: `Comment number ${n} about the broadcast` });
    const { id: commentId } = await api(other, 'POST', `/api/posts/${id}/comments`, { content: 'Were you listening that night?' });

    await member.setViewportSize(PHONE);
    await member.goto('/notifications');
    await member
      .getByRole('link', { name: /Otto Other commented on your post “Ask me about the night/ })
      .first()
      .click();
    await member.waitForURL((url) => url.pathname === `/posts/${id}`);
    expect(new URL(member.url()).hash).toBe(`#comment-${commentId}`);
    const comment = member.locator(`#comment-${commentId}`);
    await expect.poll(() => comment.getAttribute('data-highlighted')).toBe('true');
    await expect
      .poll(() =>
        comment.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    await member.waitForTimeout(600);
    await member.screenshot({ path: (await screenshot(member, 'own-posts-comment-link-390')).replace('.png', '-viewport.png') });
    await member.setViewportSize(DESKTOP);
    await member.evaluate(() => window.scrollTo(0, 0));
    await screenshot(member, 'own-posts-page-1366');
    expect(await accessibilityViolations(member)).toEqual([]);
  });

  it('lets staff pin and unpin from the post’s menu, by keyboard', async () => {
    await approvedPost('Pin this reunion notice');
    await approvedPost('A newer post above it');
    await staff.goto('/');
    await card(staff, 'Pin this reunion notice').waitFor();
    await menuOf(staff, 'Pin this reunion notice').focus();
    await staff.keyboard.press('Enter');
    await staff.getByRole('menuitem', { name: 'Pin to top' }).waitFor();
    // Edit, History, Pin to top: the third item.
    await staff.keyboard.press('ArrowDown');
    await staff.keyboard.press('ArrowDown');
    await staff.keyboard.press('Enter');
    await card(staff, 'Pin this reunion notice').getByText('Pinned', { exact: true }).waitFor();
    await expect.poll(async () => (await staff.getByRole('article').first().textContent()) ?? '').toContain('Pin this reunion notice');
    await screenshot(staff, 'own-posts-pinned-1366');
    await staff.setViewportSize(PHONE);
    await menuOf(staff, 'Pin this reunion notice').click();
    await screenshot(staff, 'own-posts-menu-390');
    await staff.getByRole('menuitem', { name: 'Unpin' }).click();
    await expect.poll(() => card(staff, 'Pin this reunion notice').getByText('Pinned', { exact: true }).count()).toBe(0);
    await staff.setViewportSize(DESKTOP);
  });

  it('replaces the text of a post still waiting for review at once, media link included', async () => {
    await api(member, 'POST', '/api/posts', { content: 'Waiting: the station’s first schedule' });
    await member.goto('/');
    await menuOf(member, 'first schedule').click();
    await member.getByRole('menuitem', { name: 'Edit' }).click();
    const form = member.getByRole('form', { name: 'Edit post' });
    await form.getByText('Saved at once.').waitFor();
    await form.getByLabel('Post text').fill('Waiting: the station’s first schedule, 1922');
    await form.getByLabel('Media', { exact: true }).selectOption('link');
    await form.getByLabel('Media URL').fill('https://en.wikipedia.org/wiki/WWJ_(AM)');
    await form.getByRole('button', { name: 'Save' }).click();
    const edited = card(member, 'first schedule, 1922');
    await edited.getByText('en.wikipedia.org', { exact: true }).waitFor();
    expect(await edited.getByText('Pending', { exact: true }).count()).toBe(1);
    expect(await edited.getByText('Edit awaiting review').count()).toBe(0);
  });

  it('deletes a post after a confirmation', async () => {
    await approvedPost('A post I regret');
    await member.goto('/');
    await menuOf(member, 'A post I regret').click();
    await member.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = member.getByRole('alertdialog', { name: 'Delete this post?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await card(member, 'A post I regret').count()).toBe(1);
    await menuOf(member, 'A post I regret').click();
    await member.getByRole('menuitem', { name: 'Delete' }).click();
    await screenshot(member, 'own-posts-delete-confirm-1366');
    await confirm.getByRole('button', { name: 'Delete post' }).click();
    await expect.poll(() => card(member, 'A post I regret').count()).toBe(0);
  });

  it('shows a visitor a public post’s page, without the menu, and says when a post is not there', async () => {
    const id = await approvedPost('Open to every visitor');
    const context = await newContext(browser, site.url, PHONE);
    contexts.push(context);
    const guest = await context.newPage();
    await guest.goto(`/posts/${id}`);
    // A fresh visitor loads the app's code first: on a busy machine that takes a while.
    await card(guest, 'Open to every visitor')
      .waitFor({ timeout: 30_000 })
      .catch(async (error: unknown) => {
        await screenshot(guest, 'own-posts-guest-failed');
        throw error;
      });
    expect(await guest.getByRole('button', { name: /^Actions for the post by/ }).count()).toBe(0);
    await guest.getByRole('button', { name: /^Comments · / }).waitFor();
    await screenshot(guest, 'own-posts-guest-390');
    const pending = await api(member, 'POST', '/api/posts', { content: 'Still waiting for review' });
    await guest.goto(`/posts/${pending.id}`);
    await guest.getByRole('heading', { name: 'Post not found' }).waitFor();
    await guest.getByRole('link', { name: 'Sign in to see it' }).waitFor();
    await screenshot(guest, 'own-posts-not-found-390');
    await guest.setViewportSize(DESKTOP);
    await screenshot(guest, 'own-posts-not-found-1366');
  });
});
