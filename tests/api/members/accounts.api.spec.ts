import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { createHash, randomUUID } from 'node:crypto';
import { emailStream } from '../../../server/members/email-claims';
import { Browser, registerMember } from '../../support/http';
import { registrationLinkFor } from '../../support/registration-links';
import { postDecider } from '../../../shared/feed/post-stream';
import { streamName } from '../../../shared/streams';

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' });
});
afterAll(async () => {
  await site?.close();
});

/** A registration from a new visitor's browser (Eve, with a long enough password unless `fields` says otherwise). */
const registerFresh = (fields: { email: string; lastName: string; password?: string; firstName?: string }) =>
  new Browser(site.url).post('/api/auth/register', { password: 'another long password', firstName: 'Eve', ...fields });

describe('registration and sign-in', () => {
  let admin: Browser;
  let adminId: string;

  it('makes the very first account the admin, and later ones members', async () => {
    const first = await registerMember(site.url, { email: 'founder@example.org', firstName: 'Ada', lastName: 'Founder' });
    admin = first.browser;
    adminId = first.user.id;
    expect(first.user).toMatchObject({
      email: 'founder@example.org',
      firstName: 'Ada',
      lastName: 'Founder',
      role: 'admin',
      profileImageUrl: null,
    });
    const second = await registerMember(site.url);
    expect(second.user.role).toBe('member');
  });

  it('signs the new account in and tells who is signed in', async () => {
    const me = await admin.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: adminId, role: 'admin' });
    expect(me.body).not.toHaveProperty('passwordHash');
  });

  it('makes no second account with the same e-mail, whatever its case: the same answer, and its owner told by mail', async () => {
    const again = await registerFresh({ email: 'FOUNDER@example.org', lastName: 'Copy' });
    expect(again.status).toBe(202);
    await site.services.mailbox.waitFor((m) => m.to.includes('founder@example.org') && /tried to register/.test(m.subject));
    expect(await site.services.store.collection('member_credentials').find({ email: 'founder@example.org' })).toHaveLength(1);
  });

  it('names address claims by a keyed hash, and still honours claims made under their old bare SHA-256 name', async () => {
    const { eventStore, config } = site.services;
    const fresh = await registerMember(site.url);
    const bare = (email: string) => streamName('email', createHash('sha256').update(email).digest('hex'));
    expect(await eventStore.readStream(bare(fresh.account.email))).toEqual([]);
    expect(await eventStore.readStream(emailStream(config.emailClaimSecret, fresh.account.email))).toHaveLength(1);

    // An address a member claimed before claims were keyed stays theirs.
    const legacy = `legacy-${randomUUID()}@example.org`;
    await eventStore.append(bare(legacy), [{ type: 'EmailClaimed', data: { memberId: fresh.user.id } }], { expectedVersion: 'no_stream' });
    expect((await registerFresh({ email: legacy, lastName: 'Copy' })).status).toBe(202);
    // No account has the address in the read models, so a link is mailed; using it finds the claim and makes nothing.
    const mail = await site.services.mailbox.waitFor((m) => m.to.includes(legacy) && /register\/confirm/.test(m.text));
    const path = new URL(mail.text.match(/https?:\/\/\S+\/api\/auth\/register\/confirm\/[\w-]+/)![0]).pathname;
    const taken = await new Browser(site.url).post(path);
    expect(taken.status).toBe(200);
    expect(String(taken.body)).toContain('This address already has an account');
    // Once let go there, it is claimed anew under the keyed name.
    await eventStore.append(bare(legacy), [{ type: 'EmailReleased', data: { memberId: fresh.user.id } }], { expectedVersion: 0 });
    await registerMember(site.url, { email: legacy, lastName: 'New' });
    expect(await eventStore.readStream(bare(legacy))).toHaveLength(2);
    expect(await eventStore.readStream(emailStream(config.emailClaimSecret, legacy))).toHaveLength(1);
  });

  it('rejects invalid registrations with a message per field', async () => {
    const response = await registerFresh({ email: 'not-an-email', password: 'short', firstName: '', lastName: 'X' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.fields)).toEqual(expect.arrayContaining(['email', 'password']));
    expect(response.body.fields.password).toMatch(/10 characters/);
  });

  it('signs in with the right password and rotates the session id', async () => {
    const browser = new Browser(site.url);
    await browser.get('/api/auth/user');
    const anonymous = await browser.post('/api/auth/login', { email: 'founder@example.org', password: 'wrong password!' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Invalid email or password');
    const unknown = await browser.post('/api/auth/login', { email: 'nobody@example.org', password: 'correct horse battery' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe('Invalid email or password');

    const before = admin.cookie('bhc.sid');
    const again = new Browser(site.url);
    const ok = await again.post('/api/auth/login', { email: 'Founder@Example.org', password: 'correct horse battery' });
    expect(ok.status).toBe(200);
    expect(ok.body.id).toBe(adminId);
    expect(again.cookie('bhc.sid')).toBeDefined();
    expect(again.cookie('bhc.sid')).not.toBe(before);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax, not Secure over plain http', async () => {
    const response = await new Browser(site.url).post('/api/auth/login', {
      email: 'founder@example.org',
      password: 'correct horse battery',
    });
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('bhc.sid='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('signs out and forgets the session', async () => {
    const { browser } = await registerMember(site.url);
    const session = browser.cookie('bhc.sid');
    expect((await browser.post('/api/logout')).status).toBe(204);
    expect((await browser.get('/api/auth/user')).status).toBe(401);
    const replay = new Browser(site.url);
    const response = await replay.request('GET', '/api/auth/user', undefined, { cookie: `bhc.sid=${session}` });
    expect(response.status).toBe(401);
  });

  it('redirects GET /api/login to the sign-in page', async () => {
    const response = await new Browser(site.url).get('/api/login');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login');
  });

  it('refuses a cross-site form post but accepts JSON and same-origin posts', async () => {
    const browser = new Browser(site.url);
    const form = await browser.request('POST', '/api/auth/login', 'email=a%40b.c&password=x', {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://evil.example',
    });
    expect(form.status).toBe(403);
    const noOrigin = await browser.request('POST', '/api/logout', 'x=1', { 'content-type': 'text/plain' });
    expect(noOrigin.status).toBe(403);
    const sameOrigin = await browser.request('POST', '/api/logout', 'x=1', { 'content-type': 'text/plain', origin: site.url });
    expect(sameOrigin.status).toBe(204);
  });

  it('takes an empty body with Content-Type: application/json as no body; malformed JSON is still a 400', async () => {
    const { browser } = await registerMember(site.url);
    const empty = await browser.request('POST', '/api/logout', '', { 'content-type': 'application/json' });
    expect(empty.status).toBe(204);
    const emptyLogin = await new Browser(site.url).request('POST', '/api/auth/login', '', {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(emptyLogin.status).toBe(400);
    expect(emptyLogin.body.fields).toMatchObject({ email: 'Email is required' });
    const malformed = await new Browser(site.url).request('POST', '/api/auth/login', '{"email":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    const poisoned = await new Browser(site.url).request('POST', '/api/auth/login', '{"__proto__":{"admin":true}}', {
      'content-type': 'application/json',
    });
    expect(poisoned.status).toBe(400);
  });

  it('compares the origin with PUBLIC_URL only, never with the Host header the caller chose', async () => {
    const spoofed = await site.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { host: 'evil.example', origin: 'http://evil.example', 'content-type': 'text/plain' },
      payload: 'x=1',
    });
    expect(spoofed.statusCode).toBe(403);
  });

  it('signs out by GET /api/logout only on a navigation from the site itself or typed in, not from another site', async () => {
    const { browser } = await registerMember(site.url);
    const fromElsewhere = await browser.request('GET', '/api/logout', undefined, {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
    });
    expect(fromElsewhere.status).toBe(302);
    expect((await browser.get('/api/auth/user')).status).toBe(200);
    const fromSibling = await browser.request('GET', '/api/logout', undefined, {
      'sec-fetch-site': 'same-site',
      'sec-fetch-mode': 'navigate',
    });
    expect(fromSibling.status).toBe(302);
    expect((await browser.get('/api/auth/user')).status).toBe(200);
    const fromSite = await browser.request('GET', '/api/logout', undefined, {
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'navigate',
    });
    expect(fromSite.headers.get('location')).toBe('/');
    expect((await browser.get('/api/auth/user')).status).toBe(401);
  });
});

describe('roles and suspension', () => {
  it('lets an admin promote, and never demote the last admin', async () => {
    const siteAdmin = await new Browser(site.url).post('/api/auth/login', {
      email: 'founder@example.org',
      password: 'correct horse battery',
    });
    expect(siteAdmin.status).toBe(200);
    const admin = new Browser(site.url);
    await admin.post('/api/auth/login', { email: 'founder@example.org', password: 'correct horse battery' });
    const adminId = siteAdmin.body.id;

    const last = await admin.put(`/api/admin/users/${adminId}/role`, { role: 'member' });
    expect(last.status).toBe(422);

    const { user, browser: member } = await registerMember(site.url);
    expect((await member.put(`/api/admin/users/${user.id}/role`, { role: 'admin' })).status).toBe(403);
    const promoted = await admin.put(`/api/admin/users/${user.id}/role`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('admin');
    expect((await member.get('/api/auth/user')).body.role).toBe('admin');

    const demoted = await member.put(`/api/admin/users/${adminId}/role`, { role: 'staff' });
    expect(demoted.status).toBe(200);
    expect(demoted.body.role).toBe('staff');
    expect((await member.put(`/api/admin/users/${user.id}/role`, { role: 'member' })).status).toBe(422);
    // Restore for the following tests.
    expect((await member.put(`/api/admin/users/${adminId}/role`, { role: 'admin' })).status).toBe(200);
  });

  it('rejects an unknown role', async () => {
    const admin = new Browser(site.url);
    const me = await admin.post('/api/auth/login', { email: 'founder@example.org', password: 'correct horse battery' });
    const response = await admin.put(`/api/admin/users/${me.body.id}/role`, { role: 'emperor' });
    expect(response.status).toBe(400);
    expect(response.body.fields.role).toBeDefined();
  });

  it('ends a suspended member’s sessions at once and refuses their sign-in', async () => {
    const admin = new Browser(site.url);
    await admin.post('/api/auth/login', { email: 'founder@example.org', password: 'correct horse battery' });
    const { browser: member, user, account } = await registerMember(site.url);
    const secondDevice = new Browser(site.url);
    expect((await secondDevice.post('/api/auth/login', { email: account.email, password: account.password })).status).toBe(200);

    const suspended = await admin.put(`/api/admin/users/${user.id}/suspend`);
    expect(suspended.status).toBe(200);
    expect((await member.get('/api/auth/user')).status).toBe(401);
    expect((await secondDevice.get('/api/auth/user')).status).toBe(401);
    const again = await new Browser(site.url).post('/api/auth/login', { email: account.email, password: account.password });
    expect(again.status).toBe(403);

    const list = await admin.get('/api/admin/users');
    expect(list.body.items.find((row: { id: string }) => row.id === user.id)).toMatchObject({ suspended: true, role: 'member' });

    expect((await admin.put(`/api/admin/users/${user.id}/unsuspend`)).status).toBe(200);
    expect((await new Browser(site.url).post('/api/auth/login', { email: account.email, password: account.password })).status).toBe(200);
  });

  it('does not let staff suspend an admin', async () => {
    const admin = new Browser(site.url);
    const me = await admin.post('/api/auth/login', { email: 'founder@example.org', password: 'correct horse battery' });
    const { browser: staff, user } = await registerMember(site.url);
    await admin.put(`/api/admin/users/${user.id}/role`, { role: 'staff' });
    const response = await staff.put(`/api/admin/users/${me.body.id}/suspend`);
    expect(response.status).toBe(403);
  });

  it('lists members for staff with their status, posts and join date, without password data', async () => {
    const admin = new Browser(site.url);
    await admin.post('/api/auth/login', { email: 'founder@example.org', password: 'correct horse battery' });
    const list = await admin.get('/api/admin/users?limit=100');
    expect(list.status).toBe(200);
    const founder = list.body.items.find((row: { email: string }) => row.email === 'founder@example.org');
    expect(founder).toMatchObject({ name: 'Ada Founder', role: 'admin', suspended: false, posts: 0 });
    expect(['online', 'away', 'offline']).toContain(founder.status);
    expect(new Date(founder.joinedAt).getTime()).toBeGreaterThan(0);
    expect(JSON.stringify(list.body)).not.toMatch(/scrypt|password/i);

    const id = randomUUID();
    await site.services.handle(postDecider, streamName('post', id), {
      type: 'SubmitPost',
      data: { id, content: 'Our first transmitter, 1922', mediaType: null, mediaUrl: null, mediaTitle: null, tags: [] },
      metadata: { now: new Date(), actor: { id: founder.id, role: 'admin' } },
    });
    const after = await admin.get('/api/admin/users?limit=100');
    expect(after.body.items.find((row: { id: string }) => row.id === founder.id).posts).toBe(1);
  });
});

describe('health', () => {
  it('is live, and ready when the stores, Redis and the projections are', async () => {
    expect((await new Browser(site.url).get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await new Browser(site.url).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ eventStore: 'ok', readStore: 'ok', redis: 'ok', projections: 'ok' });
  });
});

describe('rate limits', () => {
  it('limits sign-in attempts per client address', async () => {
    const limited = await startTestSite({ RATE_LIMIT_AUTH_MAX: '3' });
    try {
      const browser = new Browser(limited.url);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await browser.post('/api/auth/login', { email: 'x@example.org', password: 'whatever it is' })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('one-time sign-in links', () => {
  it('e-mails a link that signs in once, and says the same for unknown addresses', async () => {
    const { account, user } = await registerMember(site.url);
    const browser = new Browser(site.url);
    const requested = await browser.post('/api/auth/magic-link', { email: account.email });
    expect(requested.status).toBe(202);
    const unknown = await browser.post('/api/auth/magic-link', { email: 'nobody-here@example.org' });
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(requested.body);

    const mail = await site.services.mailbox.waitFor((m) => m.to.includes(account.email));
    expect(mail.subject).toMatch(/sign-in link/i);
    const link = mail.text.match(/https?:\/\/\S+\/api\/auth\/magic\/[\w-]+/)![0];
    const path = new URL(link).pathname;

    // Opening the link signs no one in and uses nothing up: its page names the account and asks for a press.
    const opened = await browser.get(path);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(opened.headers.get('cache-control')).toBe('no-store');
    expect(opened.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(String(opened.body)).toContain(`<form method="post" action="${path}">`);
    expect(String(opened.body)).toContain(`${account.email[0]}•••@example.org`);
    expect(String(opened.body)).not.toContain(account.email);
    expect((await browser.get('/api/auth/user')).status).toBe(401);

    const used = await browser.post(path);
    expect(used.status).toBe(303);
    expect(used.headers.get('location')).toBe('/');
    expect((await browser.get('/api/auth/user')).body.id).toBe(user.id);

    const again = new Browser(site.url);
    expect(String((await again.get(path)).body)).toContain('Link not valid');
    expect((await again.post(path)).headers.get('location')).toBe('/login?error=link');
    expect((await site.services.mailbox.all()).filter((m) => m.to.includes('nobody-here@example.org'))).toHaveLength(0);
  });

  it('refuses an expired link', async () => {
    const { account } = await registerMember(site.url);
    await new Browser(site.url).post('/api/auth/magic-link', { email: account.email });
    const mail = await site.services.mailbox.waitFor((m) => m.to.includes(account.email) && /magic/.test(m.text));
    const path = new URL(mail.text.match(/https?:\/\/\S+\/api\/auth\/magic\/[\w-]+/)![0]).pathname;
    // Time passes: the 15-minute time to live runs out in Redis.
    const keys = await site.services.redis.keys(`${site.services.config.redisPrefix}:sign-in-link:*`);
    for (const key of keys) await site.services.redis.pexpire(key, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const response = await new Browser(site.url).post(path);
    expect(response.headers.get('location')).toBe('/login?error=link');
  });

  it('signs no one in from another site’s form (login CSRF): the POST must come from the site itself', async () => {
    const { account } = await registerMember(site.url);
    await new Browser(site.url).post('/api/auth/magic-link', { email: account.email });
    const mail = await site.services.mailbox.waitFor((m) => m.to.includes(account.email) && /magic/.test(m.text));
    const path = new URL(mail.text.match(/https?:\/\/\S+\/api\/auth\/magic\/[\w-]+/)![0]).pathname;
    const victim = new Browser(site.url);
    const forged = await victim.request('POST', path, '', {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://attacker.example',
    });
    expect(forged.status).toBe(403);
    expect((await victim.get('/api/auth/user')).status).toBe(401);
    // The site's own page's form, from its own origin, works.
    const own = await victim.request('POST', path, '', {
      'content-type': 'application/x-www-form-urlencoded',
      origin: site.services.config.publicUrl,
    });
    expect(own.status).toBe(303);
    expect((await victim.get('/api/auth/user')).status).toBe(200);
  });
});

describe('a site served over https', () => {
  it('marks the session cookie Secure and sends HSTS; plain http sends no HSTS', async () => {
    const secure = await startTestSite({ PUBLIC_URL: 'https://community.example.org', TRUST_PROXY: '1' });
    try {
      const browser = new Browser(secure.url);
      const asked = await browser.request(
        'POST',
        '/api/auth/register',
        { email: 'a@example.org', password: 'correct horse battery', firstName: 'A', lastName: 'B' },
        { 'x-forwarded-proto': 'https' },
      );
      expect(asked.status).toBe(202);
      const link = new URL(await registrationLinkFor(secure.url, 'a@example.org'));
      expect(link.origin).toBe('https://community.example.org');
      const response = await browser.request('POST', link.pathname, {}, { 'x-forwarded-proto': 'https' });
      expect(response.status).toBe(303);
      const cookie = response.headers.getSetCookie().find((line) => line.startsWith('bhc.sid='))!;
      expect(cookie).toMatch(/; Secure/i);
      expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect((await browser.get('/')).headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect((await new Browser(site.url).get('/')).headers.get('strict-transport-security')).toBeNull();
    } finally {
      await secure.close();
    }
  });
});
