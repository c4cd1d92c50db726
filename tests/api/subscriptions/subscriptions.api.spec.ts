/**
 * Every subscription call of the OpenAPI document for every role, with its errors;
 * a guest's double opt-in through the real confirmation link; unsubscribing by the
 * page, by a mail provider's one-click POST (no session, no Origin) and by a plain
 * form without JavaScript; the lookup's shapes; the staff consent record; and a
 * read model that a replay rebuilds identically.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelsApart, startTestSite, type TestSite } from '../../support/site';
import { Browser, registerCast, registerMember } from '../../support/http';
import { allProjections } from '../../../projections/index';
import { SUBSCRIPTIONS, subscriptionsCollection, type SubscriptionDocument } from '../../../projections/subscriptions/subscriptions';
import { subscriptionToken } from '../../../platform/mail/link-tokens';
import {
  DUPLICATE_SUBSCRIPTION,
  GUEST_REPEAT_AFTER_MS,
  GUEST_SUBSCRIBE_MESSAGE,
  MEMBER_ALREADY_SUBSCRIBED_MESSAGE,
  MEMBER_SUBSCRIBED_MESSAGE,
} from '../../../server/subscriptions/routes';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
/** Well-formed (43 base64url characters) but belonging to no subscription. */
const UNKNOWN_TOKEN = 'A'.repeat(43);
const ONE_CLICK = { 'content-type': 'application/x-www-form-urlencoded' };
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let site: TestSite;
let staff: Browser;
let member: Browser;
let memberEmail: string;
let memberId: string;
let other: Browser;
let subscriber: Browser;
const anonymous = () => new Browser(site.url);
const documents = () => subscriptionsCollection(site.services.store);
const tokenOf = (id: string) => subscriptionToken(site.services.config.subscriptionLinkSecret, id);
let guestCounter = 0;
const guestEmail = () => `guest${++guestCounter}-${Date.now()}@example.org`;

/** The subscription once its confirmation mail went out (the site's own workers send it to the in-process sink). */
async function afterConfirmationSent(id: string): Promise<SubscriptionDocument> {
  await expect
    .poll(async () => (await documents().findOne({ _id: id }))?.history.some((entry) => entry.event === 'confirmation_sent'), {
      timeout: 15_000,
      interval: 50,
    })
    .toBe(true);
  return (await documents().findOne({ _id: id }))!;
}

/**
 * A guest's pending subscription, found through the read model as the mail worker would, once its confirmation
 * mail is recorded: from then on its history changes only by what the test does.
 */
async function guestSubscription(overrides: Record<string, unknown> = {}): Promise<SubscriptionDocument> {
  const email = guestEmail();
  const response = await anonymous().post('/api/subscribe', { email, subscriptionType: 'blog_posts', frequency: 'daily', ...overrides });
  expect(response.status).toBe(202);
  const [created] = await documents().find({ email: String(overrides.email ?? email).toLowerCase() }, { sort: { createdAt: -1 } });
  return afterConfirmationSent(created!._id);
}

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '10000' });
  const cast = await registerCast(site.url);
  staff = cast.staff.browser;
  member = cast.member.browser;
  memberEmail = cast.member.user.email;
  memberId = cast.member.user.id;
  other = cast.other.browser;
  subscriber = cast.subscriber.browser;
});
afterAll(async () => {
  await site?.close();
});

describe("a member's own subscriptions", () => {
  let blogId: string;

  it('refuses every call without a session', async () => {
    const guest = anonymous();
    expect((await guest.get('/api/subscriptions')).status).toBe(401);
    expect((await guest.post('/api/subscriptions', { subscriptionType: 'all', frequency: 'daily' })).status).toBe(401);
    expect((await guest.put(`/api/subscriptions/${UNKNOWN_ID}`, { isActive: false })).status).toBe(401);
    expect((await guest.delete(`/api/subscriptions/${UNKNOWN_ID}`)).status).toBe(401);
  });

  it('creates a subscription for the account’s address, confirmed at once', async () => {
    const response = await member.post('/api/subscriptions', { subscriptionType: 'blog_posts', frequency: 'weekly' });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['createdAt', 'email', 'frequency', 'id', 'isActive', 'status', 'subscriptionType']);
    expect(response.body).toMatchObject({
      email: memberEmail,
      subscriptionType: 'blog_posts',
      frequency: 'weekly',
      isActive: true,
      status: 'active',
    });
    expect(Date.parse(response.body.createdAt)).not.toBeNaN();
    blogId = response.body.id;
  });

  it('creates a paused one when asked with isActive false', async () => {
    const response = await member.post('/api/subscriptions', { subscriptionType: 'newsfeed', frequency: 'immediate', isActive: false });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ subscriptionType: 'newsfeed', isActive: false, status: 'paused' });
  });

  it('refuses a second live subscription of the same type, also when sent twice at once', async () => {
    const again = await member.post('/api/subscriptions', { subscriptionType: 'blog_posts', frequency: 'daily' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: DUPLICATE_SUBSCRIPTION });
    const twice = await Promise.all([0, 1].map(() => other.post('/api/subscriptions', { subscriptionType: 'all', frequency: 'daily' })));
    expect(twice.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('names the fields of an invalid body', async () => {
    const response = await member.post('/api/subscriptions', { subscriptionType: 'newsletter', frequency: 'hourly' });
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual({
      subscriptionType: 'Choose blog_posts, newsfeed or all',
      frequency: 'Choose immediate, daily or weekly',
    });
    expect((await member.post('/api/subscriptions', { subscriptionType: 'all', frequency: 'daily', isActive: 'yes' })).status).toBe(400);
  });

  it('lists only the caller’s own subscriptions, oldest first', async () => {
    const mine = await member.get('/api/subscriptions');
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((s: { subscriptionType: string }) => s.subscriptionType)).toEqual(['blog_posts', 'newsfeed']);
    const theirs = await other.get('/api/subscriptions');
    expect(theirs.body.items.map((s: { subscriptionType: string }) => s.subscriptionType)).toEqual(['all']);
  });

  it('lets subscribers manage their subscriptions too', async () => {
    const response = await subscriber.post('/api/subscriptions', { subscriptionType: 'newsfeed', frequency: 'daily' });
    expect(response.status).toBe(201);
    expect((await subscriber.get('/api/subscriptions')).body.items).toHaveLength(1);
  });

  it('changes frequency and the active switch for the owner only', async () => {
    const changed = await member.put(`/api/subscriptions/${blogId}`, { frequency: 'daily', isActive: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: blogId, frequency: 'daily', isActive: false, status: 'paused' });
    const resumed = await member.put(`/api/subscriptions/${blogId}`, { isActive: true });
    expect(resumed.body).toMatchObject({ frequency: 'daily', isActive: true, status: 'active' });
    expect((await member.put(`/api/subscriptions/${blogId}`, {})).status).toBe(200);

    expect((await other.put(`/api/subscriptions/${blogId}`, { isActive: false })).status).toBe(403);
    expect((await staff.put(`/api/subscriptions/${blogId}`, { isActive: false })).status).toBe(403);
    expect((await member.put(`/api/subscriptions/${UNKNOWN_ID}`, { isActive: false })).status).toBe(404);
    expect((await member.put('/api/subscriptions/not-a-uuid', { isActive: false })).status).toBe(404);
    const invalid = await member.put(`/api/subscriptions/${blogId}`, { frequency: 'hourly' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      message: 'Choose immediate, daily or weekly',
      fields: { frequency: 'Choose immediate, daily or weekly' },
    });
    expect((await member.get('/api/subscriptions')).body.items[0]).toMatchObject({ frequency: 'daily', isActive: true });
  });

  it('deletes for the owner only; the type can then be subscribed to afresh', async () => {
    expect((await other.delete(`/api/subscriptions/${blogId}`)).status).toBe(403);
    expect((await staff.delete(`/api/subscriptions/${blogId}`)).status).toBe(403);
    expect((await member.delete(`/api/subscriptions/${UNKNOWN_ID}`)).status).toBe(404);
    expect((await member.delete(`/api/subscriptions/${blogId}`)).status).toBe(204);
    expect((await member.delete(`/api/subscriptions/${blogId}`)).status).toBe(204);
    expect((await member.get('/api/subscriptions')).body.items.map((s: { id: string }) => s.id)).not.toContain(blogId);
    const ended = await member.put(`/api/subscriptions/${blogId}`, { isActive: true });
    expect(ended.status).toBe(422);
    expect(ended.body.message).toBe('This subscription has ended. Subscribe again to receive e-mails.');
    const fresh = await member.post('/api/subscriptions', { subscriptionType: 'blog_posts', frequency: 'immediate' });
    expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(blogId);
    expect(await documents().findOne({ _id: blogId })).toMatchObject({
      status: 'unsubscribed',
      history: expect.arrayContaining([{ event: 'unsubscribed', at: expect.any(String), detail: 'settings' }]),
    });
  });

  it('cannot change a guest’s subscription, which has no owner account', async () => {
    const guest = await guestSubscription();
    expect((await member.put(`/api/subscriptions/${guest._id}`, { isActive: false })).status).toBe(403);
    expect((await member.delete(`/api/subscriptions/${guest._id}`)).status).toBe(403);
  });
});

describe("a guest's double opt-in", () => {
  it('answers the same for any address and records a pending subscription', async () => {
    const email = `Grace.${Date.now()}@Example.org`;
    const response = await anonymous().post('/api/subscribe', { email, subscriptionType: 'all', frequency: 'weekly' });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: GUEST_SUBSCRIBE_MESSAGE });
    const [requested] = await documents().find({ email: email.toLowerCase() });
    expect(requested).toMatchObject({
      email: email.toLowerCase(),
      memberId: null,
      subscriptionType: 'all',
      frequency: 'weekly',
      status: 'pending',
      confirmedAt: null,
      bounces: 0,
    });
    // The consent record: the request, then when the opt-in link went out (the time the worker recorded its delivery).
    const pending = await afterConfirmationSent(requested!._id);
    const [delivered] = (await site.services.eventStore.readStream(`subscription-${pending._id}`)).filter(
      (event) => event.type === 'EmailDelivered',
    );
    expect(pending.history).toEqual([
      { event: 'requested', at: pending.createdAt, detail: 'guest' },
      { event: 'confirmation_sent', at: (delivered!.data as { at: string }).at },
    ]);
    expect(pending.status).toBe('pending');
    // A member's address gets the same answer, and a subscription that needs its link like anyone else's.
    const forMember = await anonymous().post('/api/subscribe', { email: memberEmail, subscriptionType: 'newsfeed', frequency: 'daily' });
    expect(forMember.status).toBe(202);
    expect(forMember.body).toEqual({ message: GUEST_SUBSCRIBE_MESSAGE });
  });

  it('gives a signed-in member who uses the form with their own address their account’s subscription, not a guest’s', async () => {
    const { browser: reader, user } = await registerMember(site.url);
    const response = await reader.post('/api/subscribe', {
      email: user.email.toUpperCase(),
      subscriptionType: 'blog_posts',
      frequency: 'weekly',
    });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: MEMBER_SUBSCRIBED_MESSAGE });
    const own = (await reader.get('/api/subscriptions')).body.items;
    expect(own).toMatchObject([{ subscriptionType: 'blog_posts', frequency: 'weekly', isActive: true }]);
    expect(await documents().find({ email: user.email })).toMatchObject([{ memberId: user.id, status: 'active' }]);
    // Again: nothing new, and the answer says the updates already come.
    const again = await reader.post('/api/subscribe', { email: user.email, subscriptionType: 'blog_posts', frequency: 'daily' });
    expect(again.body).toEqual({ message: MEMBER_ALREADY_SUBSCRIBED_MESSAGE });
    expect(await documents().find({ email: user.email })).toHaveLength(1);
    // Another address from the same session is a guest's, confirmed by its own link.
    const friend = guestEmail();
    expect((await reader.post('/api/subscribe', { email: friend, subscriptionType: 'all', frequency: 'weekly' })).body).toEqual({
      message: GUEST_SUBSCRIBE_MESSAGE,
    });
    expect(await documents().find({ email: friend })).toMatchObject([{ memberId: null, status: 'pending' }]);
  });

  it('stores the token’s hash only', async () => {
    const pending = await guestSubscription();
    const stored = JSON.stringify(await site.services.eventStore.readStream(`subscription-${pending._id}`)) + JSON.stringify(pending);
    expect(stored).not.toContain(tokenOf(pending._id));
    expect(pending.tokenHash).toMatch(/^[\da-f]{64}$/);
  });

  it('refuses an invalid body with the fields named', async () => {
    const response = await anonymous().post('/api/subscribe', { email: 'not an address', subscriptionType: 'all', frequency: 'daily' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.fields)).toEqual(['email']);
    expect(
      (await anonymous().post('/api/subscribe', { email: guestEmail(), subscriptionType: 'everything', frequency: 'daily' })).status,
    ).toBe(400);
  });

  it('records nothing new for a repeated request until the first link may have been lost', async () => {
    const email = guestEmail();
    for (let i = 0; i < 3; i++)
      expect((await anonymous().post('/api/subscribe', { email, subscriptionType: 'newsfeed', frequency: 'daily' })).status).toBe(202);
    expect(await documents().countDocuments({ email })).toBe(1);
    const realNow = site.services.now;
    site.services.now = () => new Date(Date.now() + GUEST_REPEAT_AFTER_MS + 1000);
    try {
      expect((await anonymous().post('/api/subscribe', { email, subscriptionType: 'newsfeed', frequency: 'daily' })).status).toBe(202);
    } finally {
      site.services.now = realNow;
    }
    expect(await documents().countDocuments({ email })).toBe(2);
    // Another type is another subscription.
    await anonymous().post('/api/subscribe', { email, subscriptionType: 'blog_posts', frequency: 'daily' });
    expect(await documents().countDocuments({ email })).toBe(3);
  });

  /** What a browser's plain form sends from the site's own page. */
  const FORM = () => ({ 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml', origin: site.url });

  it('confirms nothing when the link is opened (mail scanners open links): it leads to a page that confirms by POST', async () => {
    const pending = await guestSubscription();
    const token = tokenOf(pending._id);
    const opened = await anonymous().get(`/api/subscribe/confirm/${token}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe(`/subscribe/confirm/${token}`);
    const page = await anonymous().get(`/subscribe/confirm/${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<form method="post" action="/api/subscribe/confirm/${token}">`);
    expect(await documents().findOne({ _id: pending._id })).toMatchObject({ status: 'pending', confirmedAt: null });

    const confirm = await anonymous().post(`/api/subscribe/confirm/${token}`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toEqual({ success: true });
    const confirmed = await documents().findOne({ _id: pending._id });
    expect(confirmed).toMatchObject({ status: 'active', isActive: true, confirmedAt: expect.any(String) });
    expect(confirmed!.history.map((h) => h.event)).toEqual(['requested', 'confirmation_sent', 'confirmed']);
    expect((await anonymous().post(`/api/subscribe/confirm/${token}`)).status).toBe(200);
    expect((await documents().findOne({ _id: pending._id }))!.history).toHaveLength(3);
  });

  it('confirms by the page’s form without JavaScript and answers with a page saying so', async () => {
    const pending = await guestSubscription();
    const form = await anonymous().request('POST', `/api/subscribe/confirm/${tokenOf(pending._id)}`, '', FORM());
    expect(form.status).toBe(200);
    expect(form.headers.get('content-type')).toMatch(/^text\/html/);
    expect(form.body).toContain('Subscription confirmed');
    expect(await documents().findOne({ _id: pending._id })).toMatchObject({ status: 'active' });
    // A form from another site is refused, as every state-changing request is.
    const other = await guestSubscription();
    const crossSite = await anonymous().request('POST', `/api/subscribe/confirm/${tokenOf(other._id)}`, '', {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://evil.example',
    });
    expect(crossSite.status).toBe(403);
  });

  it('answers unknown, malformed and ended links with their errors, and the form with the page’s error states', async () => {
    const unknown = await anonymous().post(`/api/subscribe/confirm/${UNKNOWN_TOKEN}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('TOKEN_NOT_FOUND');
    expect((await anonymous().post('/api/subscribe/confirm/short')).status).toBe(404);
    expect((await anonymous().get('/api/subscribe/confirm/short')).headers.get('location')).toBe('/subscribe/confirmed?error=link');
    const form = await anonymous().request('POST', `/api/subscribe/confirm/${UNKNOWN_TOKEN}`, '', FORM());
    expect(form.status).toBe(404);
    expect(form.body).toContain('Confirmation link not valid');
    const pending = await guestSubscription();
    expect((await anonymous().post(`/api/unsubscribe/${tokenOf(pending._id)}`)).status).toBe(200);
    const ended = await anonymous().post(`/api/subscribe/confirm/${tokenOf(pending._id)}`);
    expect(ended.status).toBe(409);
    const endedForm = await anonymous().request('POST', `/api/subscribe/confirm/${tokenOf(pending._id)}`, '', FORM());
    expect(endedForm.status).toBe(409);
    expect(endedForm.body).toContain('Subscription ended');
    expect(await documents().findOne({ _id: pending._id })).toMatchObject({ status: 'unsubscribed', confirmedAt: null });
  });
});

describe('unsubscribe links', () => {
  it('looks up a guest’s and a member’s subscription in the spec’s shape', async () => {
    const guest = await guestSubscription({ subscriptionType: 'all', frequency: 'weekly' });
    const lookup = await anonymous().get(`/api/unsubscribe/${tokenOf(guest._id)}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual({
      alreadyUnsubscribed: false,
      subscription: {
        email: guest.email,
        type: 'guest',
        subscriptionTypes: ['blog_posts', 'newsfeed'],
        subscriptionType: 'all',
        frequency: 'weekly',
      },
    });
    const mine = await member.post('/api/subscriptions', { subscriptionType: 'all', frequency: 'daily' });
    const memberLookup = await anonymous().get(`/api/unsubscribe/${tokenOf(mine.body.id)}`);
    expect(memberLookup.body).toEqual({
      alreadyUnsubscribed: false,
      subscription: {
        email: memberEmail,
        type: 'user',
        subscriptionTypes: ['blog_posts', 'newsfeed'],
        subscriptionType: 'all',
        frequency: 'daily',
      },
    });
    const newsfeed = (await member.get('/api/subscriptions')).body.items.find(
      (s: { subscriptionType: string }) => s.subscriptionType === 'newsfeed',
    );
    expect((await anonymous().get(`/api/unsubscribe/${tokenOf(newsfeed.id)}`)).body.subscription.subscriptionTypes).toEqual(['newsfeed']);
  });

  it('answers TOKEN_NOT_FOUND for unknown and malformed tokens', async () => {
    for (const token of [UNKNOWN_TOKEN, 'short', `${'A'.repeat(42)}!`]) {
      const lookup = await anonymous().get(`/api/unsubscribe/${encodeURIComponent(token)}`);
      expect(lookup.status).toBe(404);
      expect(lookup.body).toEqual({ error: 'TOKEN_NOT_FOUND' });
      const post = await anonymous().post(`/api/unsubscribe/${encodeURIComponent(token)}`);
      expect(post.status).toBe(404);
      expect(post.body).toEqual({ error: 'TOKEN_NOT_FOUND' });
    }
  });

  it('unsubscribes by a mail provider’s one-click POST, without session or Origin, once', async () => {
    const mine = await other.post('/api/subscriptions', { subscriptionType: 'newsfeed', frequency: 'immediate' });
    const token = tokenOf(mine.body.id);
    const provider = anonymous();
    const first = await provider.request('POST', `/api/unsubscribe/${token}`, 'List-Unsubscribe=One-Click', ONE_CLICK);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, alreadyUnsubscribed: false });
    const second = await provider.request('POST', `/api/unsubscribe/${token}`, 'List-Unsubscribe=One-Click', ONE_CLICK);
    expect(second.body).toEqual({ success: true, alreadyUnsubscribed: true });
    expect((await anonymous().get(`/api/unsubscribe/${token}`)).body.alreadyUnsubscribed).toBe(true);
    const document = await documents().findOne({ _id: mine.body.id });
    expect(document).toMatchObject({ status: 'unsubscribed', isActive: false, unsubscribedAt: expect.any(String) });
    expect(document!.history.filter((h) => h.event === 'unsubscribed')).toEqual([
      { event: 'unsubscribed', at: document!.unsubscribedAt, detail: 'one_click' },
    ]);
    expect((await other.get('/api/subscriptions')).body.items.map((s: { id: string }) => s.id)).not.toContain(mine.body.id);
  });

  it('accepts the one-click POST as multipart/form-data too, as RFC 8058 prefers', async () => {
    const guest = await guestSubscription();
    const form = new FormData();
    form.append('List-Unsubscribe', 'One-Click');
    const response = await fetch(`${site.url}/api/unsubscribe/${tokenOf(guest._id)}`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ success: true, alreadyUnsubscribed: false });
    expect((await documents().findOne({ _id: guest._id }))!.history.at(-1)).toMatchObject({ event: 'unsubscribed', detail: 'one_click' });
    const garbled = await fetch(`${site.url}/api/unsubscribe/${tokenOf(guest._id)}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: 'nonsense',
    });
    expect(garbled.status).toBe(400);
  });

  it('keeps the same-origin check on every other state-changing call', async () => {
    const crossSite = await anonymous().request(
      'POST',
      '/api/subscribe',
      `email=${encodeURIComponent(guestEmail())}&subscriptionType=all&frequency=daily`,
      ONE_CLICK,
    );
    expect(crossSite.status).toBe(403);
  });

  it('records the page’s POST (JSON or no body) as a link unsubscribe, a pending one included', async () => {
    const pending = await guestSubscription();
    const page = await anonymous().post(`/api/unsubscribe/${tokenOf(pending._id)}`, {});
    expect(page.body).toEqual({ success: true, alreadyUnsubscribed: false });
    expect((await documents().findOne({ _id: pending._id }))!.history.at(-1)).toMatchObject({ event: 'unsubscribed', detail: 'link' });

    const another = await guestSubscription();
    const bare = await anonymous().request('POST', `/api/unsubscribe/${tokenOf(another._id)}`);
    expect(bare.status).toBe(200);
    expect((await documents().findOne({ _id: another._id }))!.history.at(-1)).toMatchObject({ event: 'unsubscribed', detail: 'link' });
  });

  it('serves the page with a no-JavaScript form, and answers that form with an HTML page', async () => {
    const guest = await guestSubscription();
    const token = tokenOf(guest._id);
    const pageResponse = await fetch(`${site.url}/unsubscribe/${token}`);
    expect(pageResponse.status).toBe(200);
    const html = await pageResponse.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).toMatch(new RegExp(`<noscript>.*<form method="post" action="/api/unsubscribe/${token}">.*</form>.*</noscript>`, 's'));
    const malformed = await (await fetch(`${site.url}/unsubscribe/%22%3E%3Cscript%3E`)).text();
    expect(malformed).not.toContain('<noscript>');
    expect(malformed).not.toContain('<script>"');

    const form = await anonymous().request('POST', `/api/unsubscribe/${token}`, '', {
      ...ONE_CLICK,
      accept: BROWSER_ACCEPT,
      origin: site.url,
    });
    expect(form.status).toBe(200);
    expect(form.headers.get('content-type')).toMatch(/^text\/html/);
    expect(form.body).toContain('Successfully Unsubscribed');
    expect(form.body).toContain(`${guest.email} will no longer receive Blog Posts e-mails.`);
    const again = await anonymous().request('POST', `/api/unsubscribe/${token}`, '', { ...ONE_CLICK, accept: BROWSER_ACCEPT });
    expect(again.body).toContain('Successfully Unsubscribed');
    expect(again.body).toContain('was already unsubscribed');
    expect((await documents().findOne({ _id: guest._id }))!.history.at(-1)).toMatchObject({ event: 'unsubscribed', detail: 'link' });

    const unknown = await anonymous().request('POST', `/api/unsubscribe/${UNKNOWN_TOKEN}`, '', { ...ONE_CLICK, accept: BROWSER_ACCEPT });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('invalid or has expired');
  });
});

describe('the consent record', () => {
  it('shows staff every subscription of an address, newest first, with its history', async () => {
    const email = guestEmail();
    const first = await guestSubscription({ email, subscriptionType: 'newsfeed' });
    await anonymous().post(`/api/subscribe/confirm/${tokenOf(first._id)}`);
    await anonymous().request('POST', `/api/unsubscribe/${tokenOf(first._id)}`, 'List-Unsubscribe=One-Click', ONE_CLICK);
    const second = await guestSubscription({ email, subscriptionType: 'all' });

    const record = await staff.get(`/api/admin/subscriptions?email=${encodeURIComponent(email.toUpperCase())}`);
    expect(record.status).toBe(200);
    expect(record.body.items.map((s: { id: string }) => s.id)).toEqual([second._id, first._id]);
    expect(record.body.items[1]).toEqual({
      id: first._id,
      email,
      memberId: null,
      subscriptionType: 'newsfeed',
      frequency: 'daily',
      status: 'unsubscribed',
      isActive: false,
      bounces: 0,
      createdAt: first.createdAt,
      confirmedAt: expect.any(String),
      unsubscribedAt: expect.any(String),
      history: [
        { event: 'requested', at: first.createdAt, detail: 'guest' },
        { event: 'confirmation_sent', at: expect.any(String) },
        { event: 'confirmed', at: expect.any(String) },
        { event: 'unsubscribed', at: expect.any(String), detail: 'one_click' },
      ],
    });
    expect(record.body.items[0]).toMatchObject({
      status: 'pending',
      history: [{ event: 'requested', detail: 'guest' }, { event: 'confirmation_sent' }],
    });
    expect(JSON.stringify(record.body)).not.toContain('tokenHash');
  });

  it('lists a member’s changes in order', async () => {
    const record = await staff.get(`/api/admin/subscriptions?email=${encodeURIComponent(memberEmail)}`);
    const blog = record.body.items.find(
      (s: { memberId: string; status: string; subscriptionType: string }) =>
        s.memberId === memberId && s.status === 'unsubscribed' && s.subscriptionType === 'blog_posts',
    );
    expect(blog.history.map((h: { event: string; detail?: string }) => [h.event, h.detail])).toEqual([
      ['requested', 'member'],
      ['frequency_changed', 'weekly to daily'],
      ['paused', undefined],
      ['resumed', undefined],
      ['unsubscribed', 'settings'],
    ]);
  });

  it('is for staff only, and needs an address', async () => {
    expect((await anonymous().get('/api/admin/subscriptions?email=a@example.org')).status).toBe(401);
    expect((await member.get('/api/admin/subscriptions?email=a@example.org')).status).toBe(403);
    expect((await subscriber.get('/api/admin/subscriptions?email=a@example.org')).status).toBe(403);
    expect((await staff.get('/api/admin/subscriptions')).status).toBe(400);
    expect((await staff.get('/api/admin/subscriptions?email=nobody@example.org')).body).toEqual({ items: [], nextCursor: null });
  });
});

describe('the read model', () => {
  const snapshot = () => site.services.store.collection(SUBSCRIPTIONS).find({}, { sort: { _id: 1 } });
  // Applied by hand besides the site's runner, as a replay would: through the store itself.
  const replay = async () => {
    const store = readModelsApart(site);
    const projection = allProjections.find((p) => p.name === 'subscriptions')!;
    const head = await site.services.eventStore.headPosition();
    const controller = new AbortController();
    for await (const recorded of site.services.eventStore.subscribeToAll({ after: 0, signal: controller.signal })) {
      await projection.apply(recorded, { store, notify: () => undefined, live: false });
      if (recorded.position >= head) controller.abort();
    }
  };

  it('is unchanged when every event is applied a second time, and rebuilt identically from nothing', async () => {
    const before = await snapshot();
    expect(before.length).toBeGreaterThan(15);
    await replay();
    expect(await snapshot()).toEqual(before);
    await site.services.store.collection(SUBSCRIPTIONS).drop();
    await replay();
    expect(await snapshot()).toEqual(before);
  }, 60_000);
});
