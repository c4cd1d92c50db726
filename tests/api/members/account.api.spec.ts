/**
 * A member's own account (docs/domain/members.md#own-account): name and bio, password, e-mail address, and their
 * signed-in browsers. Two API processes share the database and Redis, so an ended session must be refused on the
 * process that did not end it, from its very next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';
import { hashToken } from '../../../server/members/one-time-links';

let site: TestSite;
let two: TestSite;
beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' });
  two = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' }, site);
});
afterAll(async () => {
  await two?.close();
  await site?.close();
});

const PASSWORD = 'correct horse battery';

/** The member signed in a second time, in another browser, talking to the other API process. */
async function signInElsewhere(
  email: string,
  password = PASSWORD,
  userAgent = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
) {
  const browser = new Browser(two.url);
  const response = await browser.request('POST', '/api/auth/login', { email, password }, { 'user-agent': userAgent });
  expect(response.status).toBe(200);
  // Each process has answered this browser once, so each remembers its session.
  expect((await browser.get('/api/auth/user')).status).toBe(200);
  expect((await browser.at(site.url).get('/api/auth/user')).status).toBe(200);
  return browser;
}

async function emailChangeLink(to: string): Promise<string> {
  const mail = await site.services.mailbox.waitFor((m) => m.to.includes(to) && /\/api\/me\/email\/confirm\//.test(m.text));
  return new URL(mail.text.match(/https?:\/\/\S+\/api\/me\/email\/confirm\/[\w-]+/)![0]).pathname;
}

describe('name and bio', () => {
  it('changes the member’s own name and bio, trimmed, and answers the updated user', async () => {
    const { browser, user } = await registerMember(site.url);
    const response = await browser.patch('/api/me', { firstName: '  Augusta ', bio: '  I restore 1950s tube radios.\n<b>Not bold</b>  ' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, firstName: 'Augusta', bio: 'I restore 1950s tube radios.\n<b>Not bold</b>' });
    expect((await browser.get('/api/auth/user')).body).toMatchObject({
      firstName: 'Augusta',
      bio: 'I restore 1950s tube radios.\n<b>Not bold</b>',
    });
    const member = await site.services.store.collection<{ _id: string; bio: string }>('members').findOne({ _id: user.id });
    expect(member?.bio).toBe('I restore 1950s tube radios.\n<b>Not bold</b>');
  });

  it('answers a new member with an empty bio, and an empty body changes nothing', async () => {
    const { browser } = await registerMember(site.url);
    const response = await browser.patch('/api/me', {});
    expect(response.status).toBe(200);
    expect(response.body.bio).toBe('');
  });

  it('refuses a bio over 500 characters and an empty name, per field', async () => {
    const { browser } = await registerMember(site.url);
    const long = await browser.patch('/api/me', { bio: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect(long.body.fields).toEqual({ bio: 'Bio must be at most 500 characters' });
    expect((await browser.patch('/api/me', { bio: 'x'.repeat(500) })).status).toBe(200);
    const empty = await browser.patch('/api/me', { lastName: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toEqual({ lastName: 'Last name is required' });
  });

  it('is for signed-in members only', async () => {
    expect((await new Browser(site.url).patch('/api/me', { firstName: 'Eve' })).status).toBe(401);
  });
});

describe('password', () => {
  it('needs the right current password', async () => {
    const { browser } = await registerMember(site.url);
    const wrong = await browser.put('/api/me/password', { currentPassword: 'not my password', newPassword: 'a brand new passphrase' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: 'Current password is incorrect', fields: { currentPassword: 'Current password is incorrect' } });
    const short = await browser.put('/api/me/password', { currentPassword: PASSWORD, newPassword: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.fields.newPassword).toMatch(/at least 10 characters/);
  });

  it('changes it, ends every other session at once on every process, and keeps this one signed in', async () => {
    const { browser, account } = await registerMember(site.url);
    const elsewhere = await signInElsewhere(account.email);
    const changed = await browser.put('/api/me/password', { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' });
    expect(changed.status).toBe(204);
    expect((await browser.get('/api/auth/user')).status).toBe(200);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(401);
    expect((await elsewhere.at(site.url).get('/api/auth/user')).status).toBe(401);

    const old = await new Browser(site.url).post('/api/auth/login', { email: account.email, password: PASSWORD });
    expect(old.status).toBe(401);
    const fresh = await new Browser(site.url).post('/api/auth/login', { email: account.email, password: 'a brand new passphrase' });
    expect(fresh.status).toBe(200);
  });

  it('ends the sign-in links mailed before the change', async () => {
    const { browser, account } = await registerMember(site.url);
    expect((await new Browser(site.url).post('/api/auth/magic-link', { email: account.email })).status).toBe(202);
    const mail = await site.services.mailbox.waitFor((m) => m.to.includes(account.email) && /\/api\/auth\/magic\//.test(m.text));
    const path = new URL(mail.text.match(/https?:\/\/\S+\/api\/auth\/magic\/[\w-]+/)![0]).pathname;
    expect((await browser.put('/api/me/password', { currentPassword: PASSWORD, newPassword: 'a brand new passphrase' })).status).toBe(204);
    const follower = new Browser(site.url);
    expect((await follower.post(path)).status).toBe(303);
    expect((await follower.get('/api/auth/user')).status).toBe(401);
  });
});

describe('signed-in browsers', () => {
  it('lists the member’s sessions, this one marked, with no session id or cookie in sight', async () => {
    const { browser, account } = await registerMember(site.url);
    await signInElsewhere(account.email);
    const response = await browser.get('/api/me/sessions');
    expect(response.status).toBe(200);
    const { items } = response.body as {
      items: { id: string; current: boolean; signedInAt: string; lastSeenAt: string; userAgent: string | null }[];
    };
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ current: true, signedInAt: expect.any(String), lastSeenAt: expect.any(String) });
    expect(items[1]).toMatchObject({ current: false, userAgent: 'Safari on iPhone' });
    const cookie = decodeURIComponent(browser.cookie('bhc.sid')!);
    const sessionId = cookie.slice(0, cookie.lastIndexOf('.'));
    const json = JSON.stringify(response.body);
    expect(json).not.toContain(sessionId);
    expect(json).not.toContain(browser.cookie('bhc.sid')!);
  });

  it('ends one other session, which is signed out on every process at once', async () => {
    const { browser, account } = await registerMember(site.url);
    const elsewhere = await signInElsewhere(account.email);
    const other = (await browser.get('/api/me/sessions')).body.items.find((item: { current: boolean }) => !item.current);
    expect((await browser.delete(`/api/me/sessions/${other.id}`)).status).toBe(204);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(401);
    expect((await elsewhere.at(site.url).get('/api/auth/user')).status).toBe(401);
    expect((await browser.get('/api/auth/user')).status).toBe(200);
    expect((await browser.get('/api/me/sessions')).body.items).toHaveLength(1);
    expect((await browser.delete(`/api/me/sessions/${other.id}`)).status).toBe(404);
  });

  it('does not end this session, nor another member’s', async () => {
    const { browser } = await registerMember(site.url);
    const mine = (await browser.get('/api/me/sessions')).body.items[0];
    const own = await browser.delete(`/api/me/sessions/${mine.id}`);
    expect(own.status).toBe(422);
    expect(own.body.message).toBe('This is the session you are using. Sign out instead.');
    const stranger = await registerMember(site.url);
    expect((await stranger.browser.delete(`/api/me/sessions/${mine.id}`)).status).toBe(404);
    expect((await browser.get('/api/auth/user')).status).toBe(200);
  });

  it('signs out everywhere else', async () => {
    const { browser, account } = await registerMember(site.url);
    const first = await signInElsewhere(account.email);
    const second = await signInElsewhere(account.email);
    const response = await browser.post('/api/me/sessions/end-others');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ended: 2 });
    for (const ended of [first, second]) {
      expect((await ended.get('/api/auth/user')).status).toBe(401);
      expect((await ended.at(site.url).get('/api/auth/user')).status).toBe(401);
    }
    expect((await browser.get('/api/auth/user')).status).toBe(200);
    expect((await browser.get('/api/me/sessions')).body.items).toHaveLength(1);
  });
});

describe('e-mail address', () => {
  it('changes only when the link mailed to the new address is opened; the old address is told and no longer signs in', async () => {
    const { browser, account, user } = await registerMember(site.url);
    const newEmail = `moved-${Date.now()}@example.org`;
    const requested = await browser.post('/api/me/email', { email: `  ${newEmail.toUpperCase()} `, currentPassword: PASSWORD });
    expect(requested.status).toBe(202);
    expect(requested.body.message).toContain(newEmail);
    const path = await emailChangeLink(newEmail);
    expect((await browser.get('/api/auth/user')).body.email).toBe(account.email);

    const opened = await new Browser(site.url).get(path);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('/account?email=changed');
    expect((await browser.get('/api/auth/user')).body).toMatchObject({ id: user.id, email: newEmail });
    const notice = await site.services.mailbox.waitFor((m) => m.to.includes(account.email) && /was changed/.test(m.subject));
    expect(notice.text).toMatch(/no longer signs in/);

    expect((await new Browser(site.url).post('/api/auth/login', { email: newEmail, password: PASSWORD })).status).toBe(200);
    expect((await new Browser(site.url).post('/api/auth/login', { email: account.email, password: PASSWORD })).status).toBe(401);

    // The link worked once.
    expect((await new Browser(site.url).get(path)).headers.get('location')).toBe('/account?email=invalid');
    // The old address is free again: someone else may register it.
    expect((await registerMember(site.url, { ...account, firstName: 'New', lastName: 'Owner' })).user.email).toBe(account.email);
  });

  it('does not say that an address has an account: the same answer, and its owner told by mail instead of a link', async () => {
    const { browser, account } = await registerMember(site.url);
    const taken = await registerMember(site.url);
    const free = `free-${Date.now()}@example.org`;
    const asked = await browser.post('/api/me/email', { email: taken.account.email, currentPassword: PASSWORD });
    const askedFree = await browser.post('/api/me/email', { email: free, currentPassword: PASSWORD });
    expect([asked.status, askedFree.status]).toEqual([202, 202]);
    expect(asked.body.message.replace(taken.account.email, '<address>')).toBe(askedFree.body.message.replace(free, '<address>'));
    const notice = await site.services.mailbox.waitFor(
      (m) => m.to.includes(taken.account.email) && /tried to use your address/.test(m.subject),
    );
    expect(notice.text).not.toMatch(/\/api\/me\/email\/confirm\//);
    expect(notice.text).not.toContain(account.email);
    await emailChangeLink(free);
    expect(
      (await site.services.mailbox.all()).filter((m) => m.to.includes(taken.account.email) && /\/api\/me\/email\/confirm\//.test(m.text)),
    ).toEqual([]);
  });

  it('refuses an address another account took before the link is opened', async () => {
    const { browser } = await registerMember(site.url);

    const wanted = `wanted-${Date.now()}@example.org`;
    expect((await browser.post('/api/me/email', { email: wanted, currentPassword: PASSWORD })).status).toBe(202);
    const path = await emailChangeLink(wanted);
    // Someone registers the address before the link is opened.
    expect(
      (await registerMember(site.url, { email: wanted, password: PASSWORD, firstName: 'Quick', lastName: 'Claimant' })).user.email,
    ).toBe(wanted);
    expect((await browser.get(path)).headers.get('location')).toBe('/account?email=taken');
    expect((await browser.get('/api/auth/user')).body.email).not.toBe(wanted);
  });

  it('lets only one of two members move to the same address', async () => {
    const one = await registerMember(site.url);
    const other = await registerMember(site.url);
    const wanted = `contested-${Date.now()}@example.org`;
    await one.browser.post('/api/me/email', { email: wanted, currentPassword: PASSWORD });
    await other.browser.post('/api/me/email', { email: wanted, currentPassword: PASSWORD });
    const mails = async () => (await site.services.mailbox.all()).filter((m) => m.to.includes(wanted));
    for (let i = 0; i < 100 && (await mails()).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const paths = (await mails()).map((m) => new URL(m.text.match(/https?:\/\/\S+\/api\/me\/email\/confirm\/[\w-]+/)![0]).pathname);
    expect(paths).toHaveLength(2);
    const outcomes = await Promise.all(paths.map((path) => new Browser(site.url).get(path).then((r) => r.headers.get('location'))));
    expect(outcomes.sort()).toEqual(['/account?email=changed', '/account?email=taken']);
    const holders = await site.services.store.collection<{ _id: string; email: string }>('member_credentials').find({ email: wanted });
    expect(holders).toHaveLength(1);
  });

  it('refuses an expired link', async () => {
    const { browser, account } = await registerMember(site.url);
    const wanted = `late-${Date.now()}@example.org`;
    await browser.post('/api/me/email', { email: wanted, currentPassword: PASSWORD });
    const path = await emailChangeLink(wanted);
    // Time passes: the 24-hour time to live runs out in Redis.
    const token = path.split('/').at(-1)!;
    await site.services.redis.pexpire(`${site.services.config.redisPrefix}:email-change-link:${hashToken(token)}`, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await browser.get(path)).headers.get('location')).toBe('/account?email=invalid');
    expect((await browser.get('/api/auth/user')).body.email).toBe(account.email);
  });

  it('needs the current password, and counts a wrong one against the account', async () => {
    const { browser, account } = await registerMember(site.url);
    const wanted = `unconfirmed-${Date.now()}@example.org`;
    const without = await browser.post('/api/me/email', { email: wanted });
    expect(without.status).toBe(400);
    expect(without.body.fields).toEqual({ currentPassword: 'Current password is required' });
    const wrong = await browser.post('/api/me/email', { email: wanted, currentPassword: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ currentPassword: 'Current password is incorrect' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await site.services.mailbox.all()).filter((m) => m.to.includes(wanted))).toEqual([]);
    expect((await browser.get('/api/auth/user')).body.email).toBe(account.email);
  });

  it('ends every other session of the member once the change is made; the browser that asked stays signed in', async () => {
    const { browser, account } = await registerMember(site.url);
    const elsewhere = await signInElsewhere(account.email);
    const wanted = `sessions-${Date.now()}@example.org`;
    expect((await browser.post('/api/me/email', { email: wanted, currentPassword: PASSWORD })).status).toBe(202);
    expect((await elsewhere.get('/api/auth/user')).status).toBe(200);
    // Opened in a browser that is not signed in (the mail app's), as it often is.
    expect((await new Browser(site.url).get(await emailChangeLink(wanted))).headers.get('location')).toBe('/account?email=changed');
    expect((await elsewhere.get('/api/auth/user')).status).toBe(401);
    expect((await elsewhere.at(site.url).get('/api/auth/user')).status).toBe(401);
    expect((await browser.get('/api/auth/user')).body.email).toBe(wanted);
  });

  it('refuses the member’s own address and an invalid one, per field', async () => {
    const { browser, account } = await registerMember(site.url);
    const same = await browser.post('/api/me/email', { email: account.email.toUpperCase(), currentPassword: PASSWORD });
    expect(same.status).toBe(400);
    expect(same.body.fields).toEqual({ email: 'That is already your e-mail address' });
    const invalid = await browser.post('/api/me/email', { email: 'not an address', currentPassword: PASSWORD });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toEqual({ email: 'Enter a valid email address' });
  });
});
