/**
 * "Follow this link" in the development mailbox: an admin's browser is sent to the real link of a caught mail (a
 * password reset, a sign-in link), while every answer the mailbox shows keeps the token masked. Refused to anyone
 * but admins, to a navigation another site started, and absent where the sink is not the development one: with
 * SMTP_URL set (no mailbox at all) and in production (a staging site running the sink).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerCast, registerMember } from '../support/http';
import { MASKED_TOKEN } from '../../server/mail/masked-links';

let site: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;
const others: TestSite[] = [];

beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_MAIL_LINKS_MAX: '1000' });
  cast = await registerCast(site.url);
}, 60_000);
afterAll(async () => {
  for (const other of others) await other.close();
  await site?.close();
});

interface Shown {
  text: string;
  html: string;
  links: { masked: string; follow: string }[];
}

async function caughtResetMail(email: string) {
  expect((await new Browser(site.url).post('/api/auth/password-reset', { email })).status).toBe(202);
  const mail = await site.services.mailbox.waitFor((m) => m.to.includes(email) && /\/reset-password\//.test(m.text));
  return { mail, token: mail.text.match(/\/reset-password\/([\w-]+)/)![1]! };
}

describe('following a caught mail’s link', () => {
  it('lists the mail’s links masked, and sends the admin’s browser to the real one', async () => {
    const { account } = await registerMember(site.url);
    const { mail, token } = await caughtResetMail(account.email);

    const shown = await cast.admin.browser.get<Shown>(`/api/admin/mailbox/${mail.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.links).toEqual([
      { masked: `${site.services.config.publicUrl}/reset-password/${MASKED_TOKEN}`, follow: `/api/admin/mailbox/${mail.id}/links/0` },
    ]);
    expect(JSON.stringify(shown.body)).not.toContain(token);

    const followed = await cast.admin.browser.request('GET', shown.body.links[0]!.follow, undefined, { 'sec-fetch-site': 'same-origin' });
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBe(`/reset-password/${token}`);
    expect(followed.headers.get('cache-control')).toBe('no-store');
    // The link is the real one: it resets the password.
    expect((await new Browser(site.url).post(`/api/auth/password-reset/${token}`, { password: 'followed from the mailbox' })).status).toBe(
      204,
    );
    expect(
      (await new Browser(site.url).post('/api/auth/login', { email: account.email, password: 'followed from the mailbox' })).status,
    ).toBe(200);
  });

  it('follows a sign-in link to its page', async () => {
    const { account } = await registerMember(site.url);
    expect((await new Browser(site.url).post('/api/auth/magic-link', { email: account.email })).status).toBe(202);
    const mail = await site.services.mailbox.waitFor((m) => m.to.includes(account.email) && /\/api\/auth\/magic\//.test(m.text));
    const token = mail.text.match(/\/api\/auth\/magic\/([\w-]+)/)![1]!;
    const followed = await cast.admin.browser.get(`/api/admin/mailbox/${mail.id}/links/0`);
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBe(`/api/auth/magic/${token}`);
  });

  it('is for admins only, from the site’s own pages, and knows only the mail’s links', async () => {
    const { account } = await registerMember(site.url);
    const { mail } = await caughtResetMail(account.email);
    const path = `/api/admin/mailbox/${mail.id}/links/0`;
    for (const { browser } of [cast.staff, cast.member, cast.subscriber]) expect((await browser.get(path)).status).toBe(403);
    const anonymous = await new Browser(site.url).get(path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('location')).toBeNull();
    const crossSite = await cast.admin.browser.request('GET', path, undefined, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('location')).toBeNull();
    expect((await cast.admin.browser.get(`/api/admin/mailbox/${mail.id}/links/1`)).status).toBe(404);
    expect((await cast.admin.browser.get('/api/admin/mailbox/no-such-mail/links/0')).status).toBe(404);
    expect((await cast.admin.browser.get(`/api/admin/mailbox/${mail.id}/links/first`)).status).toBe(400);
  });

  it('is refused in production, even with the sink, and the mail lists no link to follow', async () => {
    const production = await startTestSite({
      NODE_ENV: 'production',
      SMTP_SINK_IN_PRODUCTION: 'true',
      EMAIL_CLAIM_SECRET: 'test-claims-test-claims-test-claims-0123',
      RATE_LIMIT_AUTH_MAX: '1000',
    });
    others.push(production);
    const admin = await registerMember(production.url);
    const { account } = await registerMember(production.url);
    expect((await new Browser(production.url).post('/api/auth/password-reset', { email: account.email })).status).toBe(202);
    const mail = await production.services.mailbox.waitFor((m) => m.to.includes(account.email) && /\/reset-password\//.test(m.text));
    const shown = await admin.browser.get<Shown>(`/api/admin/mailbox/${mail.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.links).toEqual([]);
    expect(shown.body.text).toContain(`/reset-password/${MASKED_TOKEN}`);
    const followed = await admin.browser.get(`/api/admin/mailbox/${mail.id}/links/0`);
    expect(followed.status).toBe(404);
    expect(followed.headers.get('location')).toBeNull();
  });

  it('does not exist when mail goes through an SMTP relay', async () => {
    // A relay nobody listens on: nothing is mailed here, and with SMTP_URL there is no mailbox to follow links from.
    const relayed = await startTestSite({ SMTP_URL: 'smtp://127.0.0.1:9', RATE_LIMIT_AUTH_MAX: '1000' });
    others.push(relayed);
    const admin = await registerMember(relayed.url);
    expect((await admin.browser.get('/api/admin/mailbox')).status).toBe(404);
    expect((await admin.browser.get('/api/admin/mailbox/any-mail/links/0')).status).toBe(404);
    expect(relayed.routes.map((route) => route.url).filter((url) => url.startsWith('/api/admin/mailbox'))).toEqual([]);
  });
});
