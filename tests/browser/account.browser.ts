import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import type { TestSite } from '../support/site';
import { Browser as HttpBrowser, registerMember } from '../support/http';
import { accessibilityViolations, newContext, registerInBrowser, screenshot, siteInBrowser } from '../support/browser';

let site: TestSite;
let browser: Browser;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';

siteInBrowser({ RATE_LIMIT_AUTH_MAX: '1000' }, (started, chromium) => {
  site = started;
  browser = chromium;
});

/** The same member signed in on another device, through the API. */
async function signInElsewhere(email: string, password: string, userAgent: string) {
  const other = new HttpBrowser(site.url);
  expect((await other.request('POST', '/api/auth/login', { email, password }, { 'user-agent': userAgent })).status).toBe(200);
  return other;
}

const toast = (page: Page, title: string) =>
  page.getByRole('region', { name: 'Notifications (F8)' }).getByText(title, { exact: true }).waitFor();

describe('account page', () => {
  it('changes the name and bio, ends other sessions, and changes the password', async () => {
    const account = { firstName: 'Grace', lastName: 'Hopper', email: `grace-${Date.now()}@example.org`, password: 'correct horse battery' };
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await registerInBrowser(page, account);

    // Reached from the sidebar's user block.
    await page.getByRole('link', { name: /^Your account: Grace Hopper\b/ }).click();
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();

    // Name and bio.
    await page.getByLabel('First name').fill('Amazing Grace');
    await page.getByRole('textbox', { name: 'Bio' }).fill('I collect early network logos.');
    await page.getByText('30/500 characters. Plain text.').waitFor();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await toast(page, 'Profile saved');
    await page.getByRole('link', { name: /^Your account: Amazing Grace Hopper\b/ }).waitFor();
    expect(
      (
        await (
          await fetch(`${site.url}/api/auth/user`, {
            headers: { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
          })
        ).json()
      ).bio,
    ).toBe('I collect early network logos.');

    // Sessions: this device, and the phone signed in elsewhere.
    const phone = await signInElsewhere(account.email, account.password, IPHONE);
    await page.reload();
    const sessions = page.getByRole('region', { name: 'Where you are signed in' });
    await sessions.getByText('This device').waitFor();
    await sessions.getByText('Safari on iPhone').waitFor();
    await screenshot(page, 'account');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'account-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    await sessions.getByRole('button', { name: 'End the session on Safari on iPhone' }).click();
    await toast(page, 'Session ended');
    await sessions.getByText('No other sessions').waitFor();
    expect((await phone.get('/api/auth/user')).status).toBe(401);

    // Sign out everywhere else.
    const laptop = await signInElsewhere(account.email, account.password, WINDOWS_FIREFOX);
    const tablet = await signInElsewhere(account.email, account.password, IPHONE);
    await page.reload();
    await sessions.getByText('Firefox on Windows').waitFor();
    await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await toast(page, 'Signed out everywhere else');
    await sessions.getByText('No other sessions').waitFor();
    expect((await laptop.get('/api/auth/user')).status).toBe(401);
    expect((await tablet.get('/api/auth/user')).status).toBe(401);

    // Password: the wrong current one is refused beside its field; the right one signs out the others only.
    const other = await signInElsewhere(account.email, account.password, WINDOWS_FIREFOX);
    // The e-mail form asks for the current password too: this one is the password section's.
    const password = page.getByRole('region', { name: 'Password' });
    await password.getByLabel('Current password').fill('not my password');
    await password.getByLabel('New password', { exact: true }).fill('an even better passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Current password is incorrect').waitFor();
    await password.getByLabel('Current password').fill(account.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'Password changed');
    expect((await other.get('/api/auth/user')).status).toBe(401);
    await page.reload();
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    const fresh = new HttpBrowser(site.url);
    expect((await fresh.post('/api/auth/login', { email: account.email, password: 'an even better passphrase' })).status).toBe(200);
    await context.close();
  });

  it('uploads a picture and makes it the avatar', async () => {
    const account = {
      firstName: 'Mary',
      lastName: 'Pickford',
      email: `pickford-${Date.now()}@example.org`,
      password: 'correct horse battery',
    };
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await registerInBrowser(page, account);
    await page.goto('/account');
    const picture = page.getByRole('region', { name: 'Picture' });
    await picture.getByRole('button', { name: 'Upload picture' }).waitFor();
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 30, g: 90, b: 160 } } })
      .png()
      .toBuffer();
    await picture.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await toast(page, 'Picture updated');
    await picture.getByRole('button', { name: 'Change picture' }).waitFor();
    const src = await picture.locator('img').getAttribute('src');
    expect(src).toMatch(/^\/media\//);
    expect((await fetch(new URL(src!, site.url))).status).toBe(200);
    await context.close();
  });

  it('asks for an e-mail change and tells how the link went', async () => {
    const account = {
      firstName: 'Edward',
      lastName: 'Murrow',
      email: `murrow-${Date.now()}@example.org`,
      password: 'correct horse battery',
    };
    const context = await newContext(browser, site.url, { width: 390, height: 844 });
    const page = await context.newPage();
    await registerInBrowser(page, account);
    await page.goto('/account');
    const newEmail = `see-it-now-${Date.now()}@example.org`;
    const section = page.getByRole('region', { name: 'E-mail address' });
    await section.getByLabel('New e-mail address').fill(newEmail);
    await section.getByLabel('Current password').fill(account.password);
    await section.getByRole('button', { name: 'Send confirmation link' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `We sent a link to ${newEmail}` })
      .first()
      .waitFor();
    const mail = await site.services.mailbox.waitFor((m) => m.to.includes(newEmail));
    await page.goto(mail.text.match(/https?:\/\/\S+\/api\/me\/email\/confirm\/[\w-]+/)![0]);
    await toast(page, 'E-mail address changed');
    await page.getByText(newEmail, { exact: true }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await screenshot(page, 'account-email-phone');
    await context.close();
  });

  it('downloads the member’s data, then deletes the account with what they wrote', async () => {
    // Someone else registered first, so this member is not the site's only admin.
    await registerMember(site.url);
    const account = { firstName: 'Lee', lastName: 'deForest', email: `lee-${Date.now()}@example.org`, password: 'correct horse battery' };
    const context = await newContext(browser, site.url);
    const page = await context.newPage();
    await registerInBrowser(page, account);
    // Something of theirs for the export to hold, posted from the page as the composer does.
    const posted = await page.evaluate(async () => {
      const response = await fetch('/api/posts', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'The night the tower lights went out' }),
      });
      return response.status;
    });
    expect(posted).toBe(201);
    await page.goto(`${site.url}/account`);

    const data = page.getByRole('region', { name: 'Your data' });
    const [download] = await Promise.all([page.waitForEvent('download'), data.getByRole('link', { name: 'Download your data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^broadcast-history-community-\d{4}-\d\d-\d\d\.json$/u);
    const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(exported.account).toMatchObject({ email: account.email, firstName: 'Lee' });
    // What a person reads: their post as a document with plain names; the raw log only as the appendix.
    expect(exported.posts).toEqual([expect.objectContaining({ text: 'The night the tower lights went out', status: 'pending' })]);
    expect(JSON.stringify(exported.posts)).not.toMatch(/PostSubmitted|"stream"/u);
    expect(exported.activity.map((entry: { type: string }) => entry.type)).toContain('PostSubmitted');

    const leave = page.getByRole('region', { name: 'Delete your account' });
    await leave.getByText('Remove what I wrote').click();
    expect(await leave.getByRole('radio', { name: /Remove what I wrote/u }).isChecked()).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await leave.scrollIntoViewIfNeeded();
    await screenshot(page, 'account-leave-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await leave.getByLabel('Your password').fill('not my password');
    await leave.getByRole('button', { name: 'Delete my account' }).click();
    await leave.getByText('Wrong password').waitFor();
    await leave.getByLabel('Your password').fill(account.password);
    await leave.getByRole('button', { name: 'Delete my account' }).click();
    await toast(page, 'Your account was deleted');
    await page.waitForURL(`${site.url}/`);
    expect((await new HttpBrowser(site.url).post('/api/auth/login', { email: account.email, password: account.password })).status).toBe(
      401,
    );
    await context.close();
  });
});
