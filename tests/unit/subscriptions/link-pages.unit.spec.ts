import { describe, expect, it } from 'vitest';
import { prefersHtml, unsubscribedPage, withNoscriptUnsubscribeForm } from '../../../server/subscriptions/link-pages';
import { coveredTypes, guestRequestNeeded, unsubscribeVia, GUEST_REPEAT_AFTER_MS } from '../../../server/subscriptions/routes';
import type { SubscriptionDocument } from '../../../projections/subscriptions/subscriptions';

const TOKEN = 'abcdefghijklmnopqrstuvwxyz0123456789_-ABCDE';

describe('prefersHtml', () => {
  it('is true for a browser form and false for fetch, curl and mail providers', () => {
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(prefersHtml('text/*;q=0.9, application/json;q=0.5')).toBe(true);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml(undefined)).toBe(false);
    expect(prefersHtml('application/json')).toBe(false);
    expect(prefersHtml('application/json, text/html;q=0.5')).toBe(false);
    expect(prefersHtml('text/html;q=0, */*')).toBe(false);
  });
});

describe('the no-JavaScript form', () => {
  const index = '<html><body><div id="root"></div></body></html>';

  it('posts the token to the unsubscribe call', () => {
    expect(TOKEN).toHaveLength(43);
    const html = withNoscriptUnsubscribeForm(index, TOKEN);
    expect(html).toMatch(
      new RegExp(`<div id="root"></div><noscript>.*<form method="post" action="/api/unsubscribe/${TOKEN}">.*</noscript></body>`),
    );
  });

  it('is left out for anything that is not a token', () => {
    for (const token of ['"><script>alert(1)</script>', 'short', `${TOKEN.slice(0, 42)}"`])
      expect(withNoscriptUnsubscribeForm(index, token)).toBe(index);
  });
});

describe('the answer page', () => {
  it('escapes what it shows', () => {
    const page = unsubscribedPage('<b>@example.org', 'Blog Posts', false);
    expect(page).toContain('&lt;b&gt;@example.org will no longer receive Blog Posts e-mails.');
    expect(page).not.toContain('<b>');
    expect(unsubscribedPage('a@example.org', 'Newsfeed', true)).toContain('a@example.org was already unsubscribed from Newsfeed e-mails.');
  });
});

describe('subscription rules of the routes', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const live = (status: SubscriptionDocument['status'], minutesAgo: number) =>
    ({ status, createdAt: new Date(now.getTime() - minutesAgo * 60_000).toISOString() }) as SubscriptionDocument;

  it('starts a guest subscription only when the address has none of the type, or an old unconfirmed one', () => {
    expect(guestRequestNeeded([], now)).toBe(true);
    expect(guestRequestNeeded([live('pending', 1)], now)).toBe(false);
    expect(guestRequestNeeded([live('pending', GUEST_REPEAT_AFTER_MS / 60_000)], now)).toBe(true);
    expect(guestRequestNeeded([live('pending', 60), live('active', 600)], now)).toBe(false);
    expect(guestRequestNeeded([live('paused', 600)], now)).toBe(false);
  });

  it('tells a one-click POST from the page’s', () => {
    expect(unsubscribeVia({ 'List-Unsubscribe': 'One-Click' })).toBe('one_click');
    expect(unsubscribeVia({})).toBe('link');
    expect(unsubscribeVia(undefined)).toBe('link');
    expect(unsubscribeVia({ 'List-Unsubscribe': 'one-click-ish' })).toBe('link');
  });

  it('lists the types a subscription covers', () => {
    expect(coveredTypes('all')).toEqual(['blog_posts', 'newsfeed']);
    expect(coveredTypes('newsfeed')).toEqual(['newsfeed']);
  });
});
