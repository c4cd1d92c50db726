/**
 * The links of subscription mail in a browser with JavaScript switched off: the
 * confirmation and unsubscribe pages still offer a button, and pressing it does
 * what it says and shows a page saying so.
 */
import { expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { siteInBrowser, screenshot } from '../support/browser';
import type { TestSite } from '../support/site';
import { subscriptionsCollection } from '../../projections/subscriptions/subscriptions';
import { subscriptionToken } from '../../platform/mail/link-tokens';

let site: TestSite;
let browser: Browser;

siteInBrowser({}, (started, chromium) => {
  site = started;
  browser = chromium;
});

it('unsubscribes through the page’s plain form, without JavaScript', async () => {
  const email = `no-js-${Date.now()}@example.org`;
  const subscribe = await fetch(`${site.url}/api/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, subscriptionType: 'newsfeed', frequency: 'weekly' }),
  });
  expect(subscribe.status).toBe(202);
  const subscription = (await subscriptionsCollection(site.services.store).findOne({ email }))!;
  const token = subscriptionToken(site.services.config.subscriptionLinkSecret, subscription._id);

  const context = await browser.newContext({ baseURL: site.url, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/unsubscribe/${token}`);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Successfully Unsubscribed' }).isVisible()).toBe(true);
  await expect.poll(() => page.getByText(`${email} will no longer receive Newsfeed e-mails.`).isVisible()).toBe(true);
  await screenshot(page, 'unsubscribe-no-js');

  const ended = await subscriptionsCollection(site.services.store).findOne({ _id: subscription._id });
  expect(ended).toMatchObject({ status: 'unsubscribed' });
  // Found by its name: the confirmation mail's entry (confirmation_sent) may be recorded after the unsubscribe.
  expect(ended!.history.find((entry) => entry.event === 'unsubscribed')).toMatchObject({ detail: 'link' });

  // Back and pressing again: already unsubscribed, still shown as success.
  await page.goto(`/unsubscribe/${token}`);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect.poll(() => page.getByText(`${email} was already unsubscribed from Newsfeed e-mails.`).isVisible()).toBe(true);
  await context.close();
});

it('confirms a guest’s subscription through the page’s plain form, without JavaScript, and not by opening the link', async () => {
  const email = `no-js-confirm-${Date.now()}@example.org`;
  const subscribe = await fetch(`${site.url}/api/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, subscriptionType: 'blog_posts', frequency: 'immediate' }),
  });
  expect(subscribe.status).toBe(202);
  const subscription = (await subscriptionsCollection(site.services.store).findOne({ email }))!;
  const token = subscriptionToken(site.services.config.subscriptionLinkSecret, subscription._id);

  const context = await browser.newContext({ baseURL: site.url, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/api/subscribe/confirm/${token}`);
  await page.getByRole('button', { name: 'Confirm subscription' }).waitFor();
  expect(await subscriptionsCollection(site.services.store).findOne({ _id: subscription._id })).toMatchObject({ status: 'pending' });
  await page.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Subscription confirmed' }).isVisible()).toBe(true);
  await screenshot(page, 'confirm-no-js');
  expect(await subscriptionsCollection(site.services.store).findOne({ _id: subscription._id })).toMatchObject({ status: 'active' });
  await context.close();
});
