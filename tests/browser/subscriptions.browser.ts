/**
 * E-mail subscriptions in real browsers, from real server state: a member's
 * settings page and its Save, the unsubscribe page in its states with tokens
 * derived as the mail workers derive them, a guest's confirmation landing, and
 * the admins' mailbox (tokens masked) with the consent record.
 */
import { describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { accessibilityViolations, siteInBrowser, newContext, openAs, person, publicPageHydrated, screenshot } from '../support/browser';
import { subscriptionToken } from '../../platform/mail/link-tokens';
import { MASKED_TOKEN, maskLinkTokens } from '../../server/mail/masked-links';

let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: Page;
let member: Page;
const memberAccount = person('Sally', 'Settings');
/** The guest who subscribes from the landing page, and their link's token, for the mailbox test. */
const guest = { email: `guest-${Date.now()}@example.org`, token: '' };

async function open(account: ReturnType<typeof person>, path: string) {
  const { context, page } = await openAs(browser, site.url, account, path);
  contexts.push(context);
  return page;
}

async function anonymous(path: string) {
  const context = await newContext(browser, site.url);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

/** A call made from the page itself, with its session cookie and origin, as the client makes it. */
function call<T>(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ([method, url, body]) => {
      const response = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    [method, url, body] as const,
  );
}

const toast = (page: Page, title: string) => page.getByRole('region', { name: 'Notifications (F8)' }).getByText(title, { exact: true });
const unsaved = (page: Page) => page.getByRole('heading', { name: 'You have unsaved changes' });
const toggle = (page: Page, label: string) => page.getByRole('switch', { name: new RegExp(`^${label}`) });
/** Clicks the row's switch where a person would: the switch input itself is visually hidden under its drawing. */
const flip = (page: Page, label: string) => page.locator('label', { has: toggle(page, label) }).click();

async function chooseFrequency(page: Page, type: string, frequency: string) {
  await page.getByRole('button', { name: new RegExp(`${type} frequency`) }).click();
  await page.getByRole('option', { name: frequency }).click();
}

async function save(page: Page, expectedToast: string) {
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await toast(page, expectedToast).waitFor();
}

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, async (started, chromium) => {
  site = started;
  browser = chromium;
  // The first account is the admin.
  admin = await open(person('Ada', 'Admin'), '/');
  member = await open(memberAccount, '/subscription-settings');
});

describe('subscription settings', () => {
  it('saves new subscriptions, changes a frequency and removes one, with the unsaved card and toasts', async () => {
    await member.getByRole('heading', { name: 'Subscription Settings' }).waitFor();
    await member.getByText(memberAccount.email.toLowerCase()).waitFor();
    await member.getByText('You have no active subscriptions.').waitFor();
    expect(await unsaved(member).count()).toBe(0);

    // An edit undone leaves nothing to save.
    await flip(member, 'All Updates');
    await unsaved(member).waitFor();
    await flip(member, 'All Updates');
    await unsaved(member).waitFor({ state: 'detached' });

    await flip(member, 'Blog Posts');
    await chooseFrequency(member, 'Blog Posts', 'Daily digest');
    await flip(member, 'Newsfeed');
    await chooseFrequency(member, 'Newsfeed', 'Weekly digest');
    await unsaved(member).waitFor();
    await save(member, 'Subscription created');
    await unsaved(member).waitFor({ state: 'detached' });

    const saved = await call<{ items: { subscriptionType: string; frequency: string; isActive: boolean }[] }>(
      member,
      'GET',
      '/api/subscriptions',
    );
    expect(
      saved.body.items
        .map(({ subscriptionType, frequency, isActive }) => ({ subscriptionType, frequency, isActive }))
        .sort((a, b) => a.subscriptionType.localeCompare(b.subscriptionType)),
    ).toEqual([
      { subscriptionType: 'blog_posts', frequency: 'daily', isActive: true },
      { subscriptionType: 'newsfeed', frequency: 'weekly', isActive: true },
    ]);

    await member.reload();
    const active = member.getByRole('region', { name: 'Active Subscriptions' });
    await active.getByRole('listitem', { name: 'Blog Posts' }).getByText('Daily digest').waitFor();
    await active.getByRole('listitem', { name: 'Newsfeed' }).getByText('Weekly digest').waitFor();
    expect(await active.getByText(/^Since /).count()).toBe(2);
    expect(await toggle(member, 'Blog Posts').isChecked()).toBe(true);
    expect(await toggle(member, 'All Updates').isChecked()).toBe(false);
    expect(await member.getByRole('button', { name: /All Updates frequency/ }).isDisabled()).toBe(true);

    await chooseFrequency(member, 'Blog Posts', 'Weekly digest');
    await save(member, 'Settings updated');
    await active.getByRole('listitem', { name: 'Blog Posts' }).getByText('Weekly digest').waitFor();

    await flip(member, 'Newsfeed');
    await save(member, 'Subscription removed');
    await active.getByRole('listitem', { name: 'Newsfeed' }).waitFor({ state: 'detached' });
    await unsaved(member).waitFor({ state: 'detached' });
    expect((await call<{ items: unknown[] }>(member, 'GET', '/api/subscriptions')).body.items).toHaveLength(1);
  });

  it('follows a subscription made in another tab without losing the unsaved edits, and keeps them when a save fails', async () => {
    await flip(member, 'All Updates');
    await chooseFrequency(member, 'All Updates', 'Daily digest');
    await unsaved(member).waitFor();
    // Meanwhile, from another tab, the member subscribes to All Updates weekly: this page learns it by socket.
    expect(
      (await call(member, 'POST', '/api/subscriptions', { subscriptionType: 'all', frequency: 'weekly', isActive: true })).status,
    ).toBe(201);
    const active = member.getByRole('region', { name: 'Active Subscriptions' });
    await active.getByRole('listitem', { name: 'All Updates' }).getByText('Weekly digest').waitFor();
    // The member's own choice (daily) is still there, now as a change of the weekly subscription.
    expect(await toggle(member, 'All Updates').isChecked()).toBe(true);
    expect(await member.getByRole('button', { name: /All Updates frequency/ }).textContent()).toContain('Daily digest');
    await unsaved(member).waitFor();

    // The update fails once: the toast says why and the edits stay.
    await member.route(
      '**/api/subscriptions/*',
      (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'The site is busy. Please try again.' }),
        }),
      { times: 1 },
    );
    await member.getByRole('button', { name: 'Save Changes' }).click();
    const failure = member.getByRole('alert').filter({ hasText: 'Update failed' });
    await failure.getByText('The site is busy. Please try again.').waitFor();
    await unsaved(member).waitFor();
    expect(await member.getByRole('button', { name: /All Updates frequency/ }).textContent()).toContain('Daily digest');
    await save(member, 'Settings updated');
    await unsaved(member).waitFor({ state: 'detached' });
    const all = (
      await call<{ items: { subscriptionType: string; frequency: string }[] }>(member, 'GET', '/api/subscriptions')
    ).body.items.find((s) => s.subscriptionType === 'all');
    expect(all?.frequency).toBe('daily');
  });

  it('follows an unsubscribe made through the link in a mail, opened in another page, keeping an unsaved edit of another type', async () => {
    const blog = (
      await call<{ items: { id: string; subscriptionType: string; status: string }[] }>(member, 'GET', '/api/subscriptions')
    ).body.items.find((s) => s.subscriptionType === 'blog_posts' && s.status === 'active');
    expect(blog).toBeTruthy();
    expect(await toggle(member, 'Blog Posts').isChecked()).toBe(true);
    await flip(member, 'Newsfeed');
    await unsaved(member).waitFor();

    const link = await anonymous(`/unsubscribe/${subscriptionToken(site.services.config.subscriptionLinkSecret, blog!.id)}`);
    await link.getByRole('button', { name: 'Unsubscribe' }).click();
    await link.getByRole('heading', { name: 'Successfully Unsubscribed' }).waitFor();

    // No reload: the settings page turns Blog Posts off and drops it from the summary.
    const active = member.getByRole('region', { name: 'Active Subscriptions' });
    await active.getByRole('listitem', { name: 'Blog Posts' }).waitFor({ state: 'detached' });
    await expect.poll(() => toggle(member, 'Blog Posts').isChecked()).toBe(false);
    // The unsaved Newsfeed choice is still there to save.
    expect(await toggle(member, 'Newsfeed').isChecked()).toBe(true);
    await unsaved(member).waitFor();
    await flip(member, 'Newsfeed');
    await unsaved(member).waitFor({ state: 'detached' });
  });

  it('turns event reminders off and on at once, and keeps the choice across a reload', async () => {
    await member.goto('/subscription-settings');
    const reminders = member.getByRole('region', { name: 'Event reminders' });
    const remind = reminders.getByRole('switch', { name: /^Remind me of events/u });
    await expect.poll(() => remind.isChecked()).toBe(true);
    await reminders.getByText('Remind me of events').click();
    await toast(member, 'Event reminders off').waitFor();
    expect(await unsaved(member).count()).toBe(0);
    await member.reload();
    await expect.poll(() => remind.isChecked()).toBe(false);
    expect(await member.evaluate(async () => (await (await fetch('/api/me/event-reminders')).json()) as unknown)).toEqual({
      enabled: false,
    });
    await reminders.getByText('Remind me of events').click();
    await toast(member, 'Event reminders on').waitFor();
  });

  it('works at 375px, by keyboard, and says so when the settings cannot load', async () => {
    const { context, page } = await openAs(browser, site.url, person('Nora', 'Narrow'));
    contexts.push(context);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/subscription-settings');
    await toggle(page, 'Newsfeed').focus();
    await page.keyboard.press('Space');
    await unsaved(page).waitFor();
    await page.getByRole('button', { name: /Newsfeed frequency/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'Immediate' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('button', { name: /Newsfeed frequency/ }).textContent()).toContain('Daily digest');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(page, 'subscription-settings-375');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The network drops the call: the page's load failure, in the spec's words.
    await page.route(
      (url) => url.pathname === '/api/subscriptions',
      (route) => route.abort(),
    );
    await page.reload();
    await page.getByText('Failed to load subscription settings. Please refresh the page and try again.').waitFor();
  });
});

describe('unsubscribe page', () => {
  it('unsubscribes a member from a real link, then shows the link as already used', async () => {
    const created = await call<{ id: string }>(member, 'POST', '/api/subscriptions', {
      subscriptionType: 'newsfeed',
      frequency: 'daily',
      isActive: true,
    });
    expect(created.status).toBe(201);
    const page = await anonymous(`/unsubscribe/${subscriptionToken(site.services.config.subscriptionLinkSecret, created.body.id)}`);
    await page.getByRole('heading', { name: 'Unsubscribe from e-mails' }).waitFor();
    const details = page.locator('dl');
    await details.getByText(memberAccount.email.toLowerCase()).waitFor();
    await details.getByText('Newsfeed', { exact: true }).waitFor();
    await details.getByText('Daily digest').waitFor();
    await details.getByText('Active', { exact: true }).waitFor();
    await screenshot(page, 'unsubscribe-confirm');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'Successfully Unsubscribed' }).waitFor();
    expect(
      (await call<{ items: { subscriptionType: string }[] }>(member, 'GET', '/api/subscriptions')).body.items.map(
        (s) => s.subscriptionType,
      ),
    ).not.toContain('newsfeed');

    await page.reload();
    await page.getByRole('heading', { name: 'Already Unsubscribed' }).waitFor();
    await page.getByText('This address is already unsubscribed.', { exact: false }).waitFor();
  });

  it("confirms a guest's subscription from its link, lets the guest cancel, then unsubscribe", async () => {
    const { email } = guest;
    const page = await anonymous('/');
    // Sent before the page's code runs, the form goes to /subscribe (public-pages.browser.ts): here it is sent from the landing page.
    await publicPageHydrated(page);
    const form = page.getByRole('region', { name: 'Get updates by e-mail' });
    await form.getByLabel('E-mail address').fill(email);
    await form.getByLabel('Updates').selectOption({ label: 'All Updates' });
    await form.getByLabel('How often').selectOption({ label: 'Weekly digest' });
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await form.getByText('Check your inbox to confirm your subscription.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    const record = await call<{ items: { id: string; status: string }[] }>(
      admin,
      'GET',
      `/api/admin/subscriptions?email=${encodeURIComponent(email)}`,
    );
    expect(record.body.items).toHaveLength(1);
    expect(record.body.items[0]!.status).toBe('pending');
    const token = subscriptionToken(site.services.config.subscriptionLinkSecret, record.body.items[0]!.id);
    guest.token = token;
    // The confirmation mail carries the same token the test derived.
    const confirmation = await site.services.mailbox.waitFor((mail) => mail.to.includes(email));
    expect(confirmation.text).toContain(`/subscribe/confirm/${token}`);

    // Opening the link confirms nothing (mail scanners open links); the page's button does.
    await page.goto(`/subscribe/confirm/${token}`);
    await page.getByRole('heading', { name: 'Confirm your subscription' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(
      (await call<{ items: { status: string }[] }>(admin, 'GET', `/api/admin/subscriptions?email=${encodeURIComponent(email)}`)).body
        .items[0]!.status,
    ).toBe('pending');
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await page.waitForURL('**/subscribe/confirmed');
    await page.getByRole('heading', { name: 'Subscription confirmed' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goto(`/subscribe/confirm/${'x'.repeat(43)}`);
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await page.waitForURL('**/subscribe/confirmed?error=link');
    await page.getByRole('heading', { name: 'Confirmation link not valid' }).waitFor();

    await page.goto(`/unsubscribe/${token}`);
    const details = page.locator('dl');
    await details.getByText(email).waitFor();
    await details.getByText('All Updates (Blog Posts, Newsfeed)').waitFor();
    await details.getByText('Weekly digest').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Join Community' }).waitFor();

    await page.goto(`/unsubscribe/${token}`);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'Successfully Unsubscribed' }).waitFor();
    // A link mailed before confirmation moved to the page still leads there.
    await page.goto(`/api/subscribe/confirm/${token}`);
    await page.waitForURL(`**/subscribe/confirm/${token}`);
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await page.waitForURL('**/subscribe/confirmed?error=ended');
    await page.getByRole('heading', { name: 'Subscription ended' }).waitFor();
  });

  it('calls an unknown link invalid and asks for support, and a missing token an invalid request', async () => {
    const page = await anonymous(`/unsubscribe/${'A'.repeat(43)}`);
    await page.getByRole('heading', { name: 'Invalid or Expired Link' }).waitFor();
    await page.getByText(/contact support/).waitFor();
    await page.goto('/unsubscribe/not-a-token');
    await page.getByRole('heading', { name: 'Invalid or Expired Link' }).waitFor();
    await page.goto('/unsubscribe');
    await page.getByRole('heading', { name: 'Invalid Request' }).waitFor();
  });
});

describe('admin mailbox', () => {
  it('shows admins the mail the site sent, with headers and both parts, its links masked, and the consent record of an address', async () => {
    const visitor = await anonymous('/');
    expect((await call(visitor, 'POST', '/api/auth/magic-link', { email: memberAccount.email })).status).toBe(202);
    const sent = await site.services.mailbox.waitFor((mail) => mail.to.includes(memberAccount.email.toLowerCase()));

    await admin.goto('/');
    await admin.getByRole('link', { name: 'Mailbox' }).click();
    await admin.getByRole('heading', { name: 'Mailbox' }).waitFor();
    const list = admin.getByRole('list', { name: 'Captured mail' });
    await list.getByRole('button').filter({ hasText: sent.subject }).first().click();
    await admin.getByRole('heading', { name: sent.subject, level: 2 }).waitFor();
    const headers = admin.getByRole('region', { name: 'Headers' });
    await headers.getByRole('rowheader', { name: 'subject' }).waitFor();
    const frame = admin.locator('iframe[title="Message as HTML"]');
    expect(await frame.getAttribute('sandbox')).toBe('');
    // The sign-in link is shown, but not its token: whoever read it could sign in as the member.
    const token = sent.text.match(/\/api\/auth\/magic\/(\S+)/)?.[1];
    expect(token).toBeTruthy();
    const srcdoc = await frame.getAttribute('srcdoc');
    expect(srcdoc).toBe(maskLinkTokens(sent.html));
    expect(srcdoc).not.toContain(token);
    const textPart = admin.getByRole('region', { name: 'Text part' });
    await textPart.getByText(`${site.services.config.publicUrl}/api/auth/magic/${MASKED_TOKEN}`, { exact: false }).waitFor();
    expect(await textPart.textContent()).not.toContain(token);
    await screenshot(admin, 'mailbox');
    expect(await accessibilityViolations(admin)).toEqual([]);

    // The guest's confirmation mail, with its RFC 8058 headers.
    await list
      .getByRole('button')
      .filter({ hasText: `To ${guest.email}` })
      .first()
      .click();
    await headers.getByRole('rowheader', { name: 'list-unsubscribe', exact: true }).waitFor();
    await headers.getByText(`/api/unsubscribe/${MASKED_TOKEN}`, { exact: false }).waitFor();
    expect(await headers.textContent()).not.toContain(guest.token);
    await headers.getByText('List-Unsubscribe=One-Click').waitFor();

    await admin.getByLabel('E-mail address').fill(memberAccount.email);
    await admin.getByRole('button', { name: 'Look up' }).click();
    const record = admin.getByRole('list', { name: `Subscriptions of ${memberAccount.email}` });
    await record.getByText('Newsfeed · Daily digest · unsubscribed').waitFor();
    await record.getByText('All Updates · Daily digest · active').waitFor();
    expect(await record.getByText('Unsubscribed', { exact: true }).count()).toBeGreaterThan(0);

    // The guest's record says when the opt-in link went out.
    await admin.getByLabel('E-mail address').fill(guest.email);
    await admin.getByRole('button', { name: 'Look up' }).click();
    const guestRecord = admin.getByRole('list', { name: `Subscriptions of ${guest.email}` });
    await guestRecord.getByText('Confirmation link sent', { exact: true }).waitFor();
    expect(
      await guestRecord.getByRole('list', { name: 'History' }).getByRole('listitem').filter({ hasText: 'Confirmation link sent' }).count(),
    ).toBe(1);

    // The list follows new mail by socket, without reloading or polling.
    const listRequests: string[] = [];
    admin.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/admin/mailbox') listRequests.push(request.url());
    });
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(listRequests).toEqual([]);
    const subject = `Tonight's sign-off ${Date.now()}`;
    await site.services.mail.enqueue(`e2e-${subject}`, {
      to: 'listener@example.org',
      subject,
      text: 'At midnight.',
      html: '<p>At midnight.</p>',
    });
    await list.getByRole('button').filter({ hasText: subject }).waitFor({ timeout: 5000 });
    expect(listRequests.length).toBeGreaterThan(0);

    await member.goto('/mailbox');
    await member.getByRole('heading', { name: 'Access Denied' }).waitFor();
    expect(await member.getByRole('link', { name: 'Mailbox' }).count()).toBe(0);
  });

  it('is not shown to staff, who get Access Denied at /mailbox', async () => {
    const staff = await open(person('Stan', 'Staff'), '/');
    const { body: user } = await call<{ id: string }>(staff, 'GET', '/api/auth/user');
    expect((await call(admin, 'PUT', `/api/admin/users/${user.id}/role`, { role: 'staff' })).status).toBe(200);
    await staff.goto('/mailbox');
    await staff.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await staff.getByRole('link', { name: 'Event Management' }).waitFor();
    // Once every query of the page has answered, the sidebar still has no Mailbox entry.
    await staff.waitForLoadState('networkidle');
    expect(await staff.getByRole('link', { name: 'Mailbox' }).count()).toBe(0);
    expect(await staff.getByRole('heading', { name: 'Mailbox' }).count()).toBe(0);
  });
});
