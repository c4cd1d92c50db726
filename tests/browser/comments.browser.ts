/**
 * Comments in real browsers: a comment written in one browser appears in another within a second, with the post's
 * count; replies sit under the comment they answer; the author edits and removes, and the thread keeps a line; a
 * refused comment keeps its text with the reason; a blog post's thread, read by a guest. Desktop and phone.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, newContext, openNewsfeedForThree, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
let adminPage: Page;
let memberPage: Page;
let otherPage: Page;

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_POST_MAX: '1000', RATE_LIMIT_COMMENT_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  ({ admin: adminPage, member: memberPage, other: otherPage } = await openNewsfeedForThree(chromium, site.url));
});

const card = (page: Page, text: string) => page.getByRole('article', { name: 'Post by Ada Admin' }).filter({ hasText: text });

describe('comments', () => {
  it('appear live in another browser within a second, with the count, and replies sit under their comment', async () => {
    const written = await adminPage.request.post('/api/posts', { data: { content: 'Who remembers the WLS National Barn Dance?' } });
    expect(written.status()).toBe(201);
    const post = card(memberPage, 'Barn Dance');
    const seen = card(otherPage, 'Barn Dance');
    await post.getByRole('button', { name: 'Comments · 0' }).click();
    await seen.getByRole('button', { name: 'Comments · 0' }).click();
    await seen.getByText('No comments yet. Start the conversation.').waitFor();

    const box = post.getByLabel('Write a comment');
    await post.getByRole('button', { name: 'Comment', exact: true }).click();
    await post.getByText('Comment cannot be empty').waitFor();
    await box.fill('My father played fiddle there in 1948');
    await box.press('Control+Enter');
    await post.getByRole('article', { name: 'Comment by Mary Member' }).waitFor();
    const started = Date.now();
    await seen
      .getByRole('article', { name: 'Comment by Mary Member' })
      .getByText('My father played fiddle there in 1948')
      .waitFor({ timeout: 1000 });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(1000);
    await seen.getByRole('button', { name: 'Comments · 1' }).waitFor({ timeout: 1000 });
    expect(await box.inputValue()).toBe('');
    // The post's author is told at once, with no reload.
    await adminPage.getByRole('link', { name: /Notifications.*1 new/ }).waitFor({ timeout: 1000 });

    await seen.getByRole('article', { name: 'Comment by Mary Member' }).getByRole('button', { name: 'Reply' }).click();
    const reply = seen.getByLabel('Reply to Mary Member');
    await reply.fill('Mine ran the board that night');
    await seen.getByRole('button', { name: 'Reply', exact: true }).last().click();
    const replies = post.getByRole('list', { name: 'Replies to Mary Member' });
    await replies.getByText('Mine ran the board that night').waitFor();
    await post.getByRole('button', { name: 'Comments · 2' }).waitFor();
    await memberPage.getByRole('link', { name: /Notifications.*1 new/ }).waitFor();
    await screenshot(memberPage, 'comments-thread-member');
    expect(await accessibilityViolations(memberPage)).toEqual([]);
  });

  it('are edited and removed by their author, and the thread keeps a line for a removed one', async () => {
    const post = card(memberPage, 'Barn Dance');
    const mine = post.getByRole('article', { name: 'Comment by Mary Member' });
    expect(await post.getByRole('article', { name: 'Comment by Otto Other' }).getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await mine.getByRole('button', { name: 'Edit' }).click();
    await mine.getByLabel('Edit your comment').fill('My father played fiddle there, 1948 to 1952');
    await mine.getByRole('button', { name: 'Save' }).click();
    await card(otherPage, 'Barn Dance').getByText('My father played fiddle there, 1948 to 1952').waitFor();
    // The author's own thread is fetched again too, maybe a moment after the other reader's.
    await mine.getByText('· edited').waitFor();
    expect(await mine.getByText('· edited').count()).toBe(1);

    memberPage.once('dialog', (dialog) => void dialog.accept());
    await mine.getByRole('button', { name: 'Remove' }).click();
    const seen = card(otherPage, 'Barn Dance');
    await seen.getByText('This comment was removed').waitFor();
    await seen.getByRole('button', { name: 'Comments · 1' }).waitFor();
    expect(await seen.getByText('Mine ran the board that night').count()).toBe(1);
  });

  it('are listed on the notifications page, marked read when opened or all at once', async () => {
    await adminPage.goto('/notifications');
    await adminPage.getByText('2 unread notifications').waitFor();
    const first = adminPage.getByRole('link', { name: /Mary Member commented on your post “Who remembers the WLS National Barn Dance\?”/ });
    await screenshot(adminPage, 'notifications-admin');
    expect(await accessibilityViolations(adminPage)).toEqual([]);
    await first.click();
    // A comment's notification leads to the post's own page, at the comment.
    await adminPage.waitForURL(/\/posts\/[^/#]+#comment-/);
    await adminPage.getByRole('article').filter({ hasText: 'Who remembers the WLS National Barn Dance?' }).first().waitFor();
    await adminPage.getByRole('link', { name: /Notifications.*1 new/ }).waitFor();
    await adminPage.goto('/notifications');
    await adminPage.getByText('1 unread notification', { exact: true }).waitFor();
    await adminPage.getByRole('button', { name: 'Mark all as read' }).click();
    await adminPage.getByText('You are all caught up.').waitFor();
    expect(await adminPage.getByRole('link', { name: /Notifications.*new/ }).count()).toBe(0);
    await adminPage.goto('/');
    await adminPage.getByRole('heading', { name: 'Broadcast History Newsfeed' }).waitFor();
  });

  it('works on a phone', async () => {
    await otherPage.setViewportSize({ width: 390, height: 844 });
    const seen = card(otherPage, 'Barn Dance');
    await seen.getByLabel('Write a comment').fill('Greetings from the phone');
    await seen.getByRole('button', { name: 'Comment', exact: true }).click();
    await seen.getByRole('article', { name: 'Comment by Otto Other' }).filter({ hasText: 'Greetings from the phone' }).waitFor();
    expect(await otherPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(otherPage, 'comments-thread-phone');
    await otherPage.setViewportSize({ width: 1366, height: 900 });
  });

  it('mention a member picked from the list, who is told', async () => {
    const seen = card(otherPage, 'Barn Dance');
    const box = seen.getByLabel('Write a comment');
    await box.click();
    await box.pressSequentially('Ask @Mar');
    const picker = otherPage.getByRole('listbox', { name: 'Members to mention' });
    await picker.getByRole('option', { name: 'Mary Member' }).waitFor();
    expect(await box.getAttribute('aria-activedescendant')).toBe(await picker.getByRole('option').first().getAttribute('id'));
    await screenshot(otherPage, 'mention-picker');
    expect(await accessibilityViolations(otherPage)).toEqual([]);
    await box.press('Enter');
    expect(await picker.count()).toBe(0);
    await box.pressSequentially('about the fiddle');
    expect(await box.inputValue()).toBe('Ask @Mary Member about the fiddle');
    await box.press('Control+Enter');
    await seen.getByText('Ask @Mary Member about the fiddle').waitFor();
    await memberPage.goto('/notifications');
    await memberPage.getByRole('link', { name: /Otto Other mentioned you in a comment/ }).waitFor();
    await memberPage.goto('/');
    await memberPage.getByRole('heading', { name: 'Broadcast History Newsfeed' }).waitFor();
    await card(memberPage, 'Barn Dance')
      .getByRole('button', { name: /Comments · / })
      .click();
  });

  it('reach staff live in the Reported content tab, who remove what was reported', async () => {
    await adminPage.goto('/admin/reports');
    await adminPage.getByText('No open reports. Nothing needs a look.').waitFor();
    const greeting = card(memberPage, 'Barn Dance')
      .getByRole('article', { name: 'Comment by Otto Other' })
      .filter({ hasText: 'Greetings from the phone' });
    await greeting.getByRole('button', { name: 'Report' }).click();
    const reason = memberPage.getByRole('dialog', { name: 'Report this comment?' });
    await reason.getByLabel(/What is wrong with it/).fill('Off topic for this post');
    await reason.getByRole('button', { name: 'Report comment' }).click();
    await memberPage.getByText('Thank you. Staff will review it.').waitFor();

    const entry = adminPage.getByRole('listitem', { name: 'Comment by Otto Other' });
    await entry.getByText('Greetings from the phone').waitFor();
    expect(await entry.textContent()).toContain('reported by 1 member');
    await entry.getByRole('list', { name: 'Reasons given' }).getByText('Off topic for this post').waitFor();
    await adminPage.getByRole('link', { name: /Dashboard.*1 pending/ }).waitFor();
    await screenshot(adminPage, 'reports-queue-admin');
    expect(await accessibilityViolations(adminPage)).toEqual([]);
    await entry.getByRole('button', { name: 'Remove' }).click();
    await adminPage.getByText('No open reports. Nothing needs a look.').waitFor();
    await card(otherPage, 'Barn Dance').getByText('This comment was removed').nth(1).waitFor();
  });

  it('gathers under a published blog post, which a guest reads', async () => {
    const created = await adminPage.request.post('/api/blog', {
      data: { title: 'The first sign-on', content: '<p>It was 1922.</p>', isPublished: true },
    });
    expect(created.status()).toBe(201);
    const id = (await created.json()).id as string;
    await memberPage.goto(`/blog/${id}`);
    await memberPage.getByRole('heading', { name: 'Comments · 0' }).waitFor();
    await memberPage.getByLabel('Write a comment').fill('A wonderful piece of history');
    await memberPage.getByRole('button', { name: 'Comment', exact: true }).click();
    await memberPage.getByRole('heading', { name: 'Comments · 1' }).waitFor();

    const guest = await newContext(browser, site.url);
    contexts.push(guest);
    const reader = await guest.newPage();
    await reader.goto(`/blog/${id}`);
    await reader.getByText('A wonderful piece of history').waitFor();
    await reader.getByText('to join the conversation.').waitFor();
    expect(await reader.getByLabel('Write a comment').count()).toBe(0);
    await screenshot(reader, 'comments-blog-guest');
  });

  it('are saved from cards and pages to the bookmarks page, which says when one is gone', async () => {
    await memberPage.goto('/');
    const post = card(memberPage, 'Barn Dance');
    await post.getByRole('button', { name: 'Save post by Ada Admin' }).click();
    await post.getByRole('button', { name: 'Saved post by Ada Admin', pressed: true }).waitFor();
    const created = await adminPage.request.post('/api/blog', {
      data: { title: 'Towers of the state', content: '<p>Steel and wire.</p>', isPublished: true },
    });
    const blogId = (await created.json()).id as string;
    await memberPage.goto(`/blog/${blogId}`);
    await memberPage.getByRole('button', { name: 'Save Towers of the state' }).click();
    await memberPage.getByRole('button', { name: 'Saved Towers of the state', pressed: true }).waitFor();

    await memberPage.goto('/bookmarks');
    const list = memberPage.getByRole('list', { name: 'Bookmarks' });
    await list.getByRole('listitem', { name: 'Blog post: Towers of the state' }).waitFor();
    await list.getByRole('listitem', { name: 'Post: Post by Ada Admin' }).waitFor();
    expect((await adminPage.request.delete(`/api/blog/${blogId}`, { headers: { 'Content-Type': 'application/json' } })).status()).toBe(204);
    await memberPage.reload();
    await memberPage.getByText('This blog post was removed or is no longer shown.').waitFor();
    await screenshot(memberPage, 'bookmarks-member');
    expect(await accessibilityViolations(memberPage)).toEqual([]);
    await memberPage.getByRole('button', { name: 'Saved removed blog post' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
  });
});
