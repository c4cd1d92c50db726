/**
 * Password reset by mail (docs/domain/members.md#password-reset), against a running site with its real SMTP sink:
 * the same answer whether or not the address has an account, a link to /reset-password/{token} for an account,
 * a new password that ends every session on every process, a link that works once and for 60 minutes by the
 * site's clock, and nothing of the token in the log, the read models or the mailbox's view.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerCast, registerMember } from '../../support/http';
import { streamName } from '../../../shared/streams';
import { MASKED_TOKEN } from '../../../server/mail/masked-links';

let site: TestSite;
let two: TestSite;
let cast: Awaited<ReturnType<typeof registerCast>>;
beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_MAIL_LINKS_MAX: '1000' });
  two = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_MAIL_LINKS_MAX: '1000' }, site);
  cast = await registerCast(site.url);
}, 60_000);
afterAll(async () => {
  await two?.close();
  await site?.close();
});

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';
const RESET_PATH = /https?:\/\/[^\s"]+\/reset-password\/([A-Za-z0-9_-]+)/;

/** Asks for a reset as a signed-out visitor would, and returns the token of the link mailed for it. */
async function resetToken(email: string): Promise<string> {
  const earlier = new Set((await site.services.mailbox.all()).map((mail) => mail.id));
  const asked = await new Browser(site.url).post('/api/auth/password-reset', { email: `  ${email.toUpperCase()} ` });
  expect(asked.status).toBe(202);
  const mail = await site.services.mailbox.waitFor(
    (m) => !earlier.has(m.id) && m.to.includes(email.toLowerCase()) && RESET_PATH.test(m.text),
  );
  return mail.text.match(RESET_PATH)![1]!;
}

/** Runs `during` with the site's clock (both processes') moved on by `minutes`. */
async function minutesLater<T>(minutes: number, during: () => Promise<T>): Promise<T> {
  const realNow = site.services.now;
  const later = () => new Date(Date.now() + minutes * 60_000);
  site.services.now = later;
  two.services.now = later;
  try {
    return await during();
  } finally {
    site.services.now = realNow;
    two.services.now = realNow;
  }
}

const signIn = (email: string, password: string) => new Browser(site.url).post('/api/auth/login', { email, password });

describe('asking for a reset', () => {
  it('answers an unknown address as a known one, and mails only the account', async () => {
    const { account } = await registerMember(site.url);
    const nobody = `nobody-${Date.now()}@example.org`;
    const unknown = await new Browser(site.url).post('/api/auth/password-reset', { email: nobody });
    const known = await new Browser(site.url).post('/api/auth/password-reset', { email: account.email });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.body.message).toMatch(/If an account exists for that address/);

    const mail = await site.services.mailbox.waitFor((m) => m.to.includes(account.email) && RESET_PATH.test(m.text));
    expect(mail.subject).toBe('Choose a new password for Broadcast History Community');
    const link = mail.text.match(RESET_PATH)![0];
    expect(link.startsWith(`${site.services.config.publicUrl}/reset-password/`)).toBe(true);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.text).toMatch(/expires in 60 minutes/);
    // The account's mail went out after the unknown address was answered: none went there.
    expect((await site.services.mailbox.all()).filter((m) => m.to.includes(nobody))).toEqual([]);
  });

  it('refuses an address that is not one, per field', async () => {
    const invalid = await new Browser(site.url).post('/api/auth/password-reset', { email: 'not an address' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toEqual({ email: 'Enter a valid email address' });
  });

  it('records the request and the reset in the member’s stream, never the token nor its hash', async () => {
    const { browser, user, account } = await registerMember(site.url);
    const token = await resetToken(account.email);
    expect((await new Browser(site.url).post(`/api/auth/password-reset/${token}`, { password: NEW_PASSWORD })).status).toBe(204);
    const events = await site.services.eventStore.readStream(streamName('member', user.id));
    const types = events.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['MemberPasswordResetRequested', 'MemberPasswordReset']));
    const requested = events.find((event) => event.type === 'MemberPasswordResetRequested')!;
    const reset = events.find((event) => event.type === 'MemberPasswordReset')!;
    expect(
      Date.parse((requested.data as { expiresAt: string }).expiresAt) - Date.parse((requested.data as { requestedAt: string }).requestedAt),
    ).toBe(60 * 60_000);
    expect((reset.data as { resetId: string }).resetId).toBe((requested.data as { resetId: string }).resetId);
    expect(reset.metadata.actorId).toBe(user.id);

    const hash = createHash('sha256').update(token).digest('hex');
    const { rows } = await site.services.pool.query<{ row: string }>('SELECT row_to_json(events)::text AS row FROM events');
    const log = rows.map((row) => row.row).join('\n');
    expect(log).not.toContain(token);
    expect(log).not.toContain(hash);
    // The new password's hash is sealed in the log as the registration's is.
    expect(log).not.toMatch(/scrypt\$/u);

    // The export lists both, the hash as held, never the token.
    const signedIn = new Browser(site.url);
    expect((await signedIn.post('/api/auth/login', { email: account.email, password: NEW_PASSWORD })).status).toBe(200);
    const exported = await signedIn.get('/api/me/export');
    expect(exported.status).toBe(200);
    const activity = exported.body.activity as { type: string; data: Record<string, unknown> }[];
    expect(activity.find((event) => event.type === 'MemberPasswordReset')?.data.passwordHash).toBe('(held, not included: a one-way hash)');
    expect(activity.map((event) => event.type)).toContain('MemberPasswordResetRequested');
    expect(JSON.stringify(exported.body)).not.toContain(token);
    expect(JSON.stringify(exported.body)).not.toMatch(/scrypt\$/u);
    expect((await browser.get('/api/auth/user')).status).toBe(401);
  });

  it('mails no link to a suspended account', async () => {
    const { user, account } = await registerMember(site.url);
    expect((await cast.admin.browser.put(`/api/admin/users/${user.id}/suspend`)).status).toBe(200);
    expect((await new Browser(site.url).post('/api/auth/password-reset', { email: account.email })).status).toBe(202);
    // A later request for another account is mailed; by then the suspended one's would have been too.
    const { account: control } = await registerMember(site.url);
    await resetToken(control.email);
    expect((await site.services.mailbox.all()).filter((m) => m.to.includes(account.email) && RESET_PATH.test(m.text))).toEqual([]);
  });

  it('shows the link in the development mailbox with its token masked', async () => {
    const { account } = await registerMember(site.url);
    const token = await resetToken(account.email);
    const mail = (await site.services.mailbox.all()).find((m) => m.text.includes(token))!;
    const shown = await cast.admin.browser.get(`/api/admin/mailbox/${mail.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.text).toContain(`${site.services.config.publicUrl}/reset-password/${MASKED_TOKEN}`);
    expect(JSON.stringify(shown.body)).not.toContain(token);
  });
});

describe('choosing a new password', () => {
  it('changes the password, signs the member out everywhere on every process, and spends the link', async () => {
    const { browser, account } = await registerMember(site.url);
    const elsewhere = new Browser(two.url);
    expect((await elsewhere.post('/api/auth/login', { email: account.email, password: PASSWORD })).status).toBe(200);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(200);
    expect((await elsewhere.at(site.url).get('/api/auth/user')).status).toBe(200);
    const token = await resetToken(account.email);

    // The registration rule, and a refused password leaves the link usable.
    const short = await new Browser(site.url).post(`/api/auth/password-reset/${token}`, { password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.fields).toEqual({ password: 'Password must be at least 10 characters' });

    const reset = await new Browser(site.url).post(`/api/auth/password-reset/${token}`, { password: NEW_PASSWORD });
    expect(reset.status).toBe(204);
    expect((await browser.get('/api/auth/user')).status).toBe(401);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(401);
    expect((await elsewhere.at(site.url).get('/api/auth/user')).status).toBe(401);
    expect((await browser.get('/api/me/sessions')).status).toBe(401);

    expect((await signIn(account.email, PASSWORD)).status).toBe(401);
    expect((await signIn(account.email, NEW_PASSWORD)).status).toBe(200);

    const again = await new Browser(site.url).post(`/api/auth/password-reset/${token}`, { password: 'yet another passphrase' });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: 'This password reset link has expired or was already used.' });
    expect((await signIn(account.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('serves the link’s page without letting a cache keep its address, and changes nothing by opening it', async () => {
    const { account } = await registerMember(site.url);
    const token = await resetToken(account.email);
    const opened = await new Browser(site.url).get(`/reset-password/${token}`);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toMatch(/^text\/html/u);
    expect(opened.headers.get('cache-control')).toBe('no-store');
    expect(opened.body).not.toContain(token);
    expect((await new Browser(site.url).post(`/api/auth/password-reset/${token}`, { password: NEW_PASSWORD })).status).toBe(204);
  });

  it('answers an unknown token 404 with an error', async () => {
    for (const token of ['unknown-token', 'A'.repeat(43), MASKED_TOKEN]) {
      const response = await new Browser(site.url).post(`/api/auth/password-reset/${encodeURIComponent(token)}`, {
        password: NEW_PASSWORD,
      });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('This password reset link has expired or was already used.');
    }
  });

  it('works for 60 minutes by the site’s clock, and not after', async () => {
    const { account } = await registerMember(site.url);
    const late = await resetToken(account.email);
    const expired = await minutesLater(60, () =>
      new Browser(site.url).post(`/api/auth/password-reset/${late}`, { password: NEW_PASSWORD }),
    );
    expect(expired.status).toBe(404);
    expect(expired.body.error).toBe('This password reset link has expired or was already used.');
    expect((await signIn(account.email, PASSWORD)).status).toBe(200);

    const inTime = await resetToken(account.email);
    expect(
      (await minutesLater(59, () => new Browser(site.url).post(`/api/auth/password-reset/${inTime}`, { password: NEW_PASSWORD }))).status,
    ).toBe(204);
    expect((await signIn(account.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('is ended by a later password change, and one reset ends every other link', async () => {
    const { browser, account } = await registerMember(site.url);
    const beforeChange = await resetToken(account.email);
    expect((await browser.put('/api/me/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(204);
    expect(
      (await new Browser(site.url).post(`/api/auth/password-reset/${beforeChange}`, { password: 'the attacker’s choice' })).status,
    ).toBe(404);
    expect((await signIn(account.email, NEW_PASSWORD)).status).toBe(200);

    const first = await resetToken(account.email);
    const second = await resetToken(account.email);
    expect((await new Browser(site.url).post(`/api/auth/password-reset/${second}`, { password: 'the third passphrase' })).status).toBe(204);
    expect((await new Browser(site.url).post(`/api/auth/password-reset/${first}`, { password: 'the fourth passphrase' })).status).toBe(404);
    expect((await signIn(account.email, 'the third passphrase')).status).toBe(200);
  });

  it('no longer works once the account is erased, and its mail is dropped from the sink', async () => {
    const { browser, account } = await registerMember(site.url);
    const token = await resetToken(account.email);
    expect((await browser.request('DELETE', '/api/me', { password: PASSWORD, content: 'kept' })).status).toBe(204);
    expect((await new Browser(site.url).post(`/api/auth/password-reset/${token}`, { password: NEW_PASSWORD })).status).toBe(404);
    expect((await site.services.mailbox.all()).filter((m) => m.to.includes(account.email))).toEqual([]);
    expect((await signIn(account.email, NEW_PASSWORD)).status).toBe(401);
  });

  it('is documented with its answers, rate limit included, in the OpenAPI document', async () => {
    const document = (await new Browser(site.url).get('/api/openapi.json')).body;
    const ask = document.paths['/api/auth/password-reset'].post;
    const use = document.paths['/api/auth/password-reset/{token}'].post;
    expect(Object.keys(ask.responses)).toEqual(expect.arrayContaining(['202', '400', '429']));
    expect(Object.keys(use.responses)).toEqual(expect.arrayContaining(['204', '400', '404', '429']));
  });
});

describe('limits, as for sign-in', () => {
  it('limits asking per client address and per mailbox, and using links per client address', { timeout: 60_000 }, async () => {
    // A site of its own: the counts live in Redis under the site's prefix, which the other tests have used.
    const limited = await startTestSite({ RATE_LIMIT_AUTH_MAX: '3', RATE_LIMIT_MAIL_LINKS_MAX: '2' });
    try {
      const ask = (email: string) => new Browser(limited.url).post('/api/auth/password-reset', { email });
      // Per mailbox, whether or not it has an account: the third request for one address is refused.
      const mailbox = `limited-${Date.now()}@example.org`;
      expect([(await ask(mailbox)).status, (await ask(mailbox)).status, (await ask(mailbox)).status]).toEqual([202, 202, 429]);
      // Per client address: the route's own count is spent (three in the minute), for any address.
      const refused = await ask(`other-${Date.now()}@example.org`);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^Too many attempts|^Rate limit/u);
      const uses: number[] = [];
      for (let i = 0; i < 4; i++)
        uses.push((await new Browser(limited.url).post(`/api/auth/password-reset/unknown-token-${i}`, { password: NEW_PASSWORD })).status);
      expect(uses).toEqual([404, 404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});
