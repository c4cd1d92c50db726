/**
 * Registration says nothing of whether an address has an account (docs/domain/members.md#registration): every address
 * gets the same answer, and the mail differs. A new address gets a link that finishes signing up (once, within 24
 * hours); an address with an account gets a notice to its owner, and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startTestSite, type TestSite } from '../../support/site';
import { Browser, registerMember, type Response } from '../../support/http';
import type { CapturedMail } from '../../../platform/mail/smtp-sink';
import { registrationLinksQueued } from '../../support/registration-links';

let site: TestSite;
let admin: Browser;
beforeAll(async () => {
  site = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000' });
  admin = (await registerMember(site.url, { firstName: 'Ada', lastName: 'Admin' })).browser;
});
afterAll(async () => {
  await site?.close();
});

const PASSWORD = 'another long password';
let counter = 0;
const freshAddress = () => `joiner${++counter}-${Date.now()}@example.org`;
const registration = (email: string, fields: Partial<{ firstName: string; lastName: string; password: string }> = {}) => ({
  email,
  password: PASSWORD,
  firstName: 'Jo',
  lastName: 'Joiner',
  ...fields,
});

const LINK = /https?:\/\/\S+\/api\/auth\/register\/confirm\/[\w-]+/;
const mailTo = (email: string, match: (mail: CapturedMail) => boolean = () => true) =>
  site.services.mailbox.waitFor((mail) => mail.to.includes(email) && match(mail));
const linkPathIn = (mail: CapturedMail) => new URL(mail.text.match(LINK)![0]).pathname;
/** What a caller can tell apart: the status, the body and the headers that describe it (not the date or the counters). */
const visible = (response: Response) => ({
  status: response.status,
  body: response.body,
  contentType: response.headers.get('content-type'),
  contentLength: response.headers.get('content-length'),
  cacheControl: response.headers.get('cache-control'),
  setCookie: response.headers.getSetCookie(),
  location: response.headers.get('location'),
  rateLimit: response.headers.get('x-ratelimit-limit'),
});

describe('registering', () => {
  it('answers an address with an account exactly as a new one, mails its owner a notice, and changes nothing', async () => {
    const owner = await registerMember(site.url, { firstName: 'Olive', lastName: 'Owner' });
    const fresh = freshAddress();
    const forNew = await new Browser(site.url).post('/api/auth/register', registration(fresh));
    // The address of an account, typed in another case, with another name and password.
    const forTaken = await new Browser(site.url).post(
      '/api/auth/register',
      registration(owner.account.email.toUpperCase(), { firstName: 'Mallory', password: 'a different password' }),
    );
    expect(visible(forTaken)).toEqual(visible(forNew));
    expect(forNew.status).toBe(202);
    expect(forNew.body).toEqual({
      message: 'Check your mail to finish signing up: we sent a link to the address you gave. It works once, within 24 hours.',
    });
    expect(forNew.headers.getSetCookie()).toEqual([]);

    // The owner hears of it, with the ways in, and gets no link that would make an account.
    const notice = await mailTo(owner.account.email, (mail) => /tried to register/.test(mail.subject));
    expect(notice.text).toContain('Hello Olive Owner,');
    expect(notice.text).toContain(`${site.services.config.publicUrl}/login`);
    expect(notice.text).toContain(`${site.services.config.publicUrl}/forgot-password`);
    expect(notice.text).not.toMatch(LINK);
    expect(notice.text).not.toContain('Mallory');
    // The new address gets the link.
    const link = await mailTo(fresh, (mail) => LINK.test(mail.text));
    expect(link.subject).toBe('Finish signing up for Broadcast History Community');
    expect(link.text).not.toContain('Jo Joiner');

    // Nothing changed: the old password signs in, the new one does not; one account holds the address.
    expect(
      (await new Browser(site.url).post('/api/auth/login', { email: owner.account.email, password: owner.account.password })).status,
    ).toBe(200);
    expect(
      (await new Browser(site.url).post('/api/auth/login', { email: owner.account.email, password: 'a different password' })).status,
    ).toBe(401);
    const holders = await site.services.store.collection('member_credentials').find({ email: owner.account.email });
    expect(holders).toHaveLength(1);
    // The only link ever queued for the owner is the one of their own registration (the mailbox may still hold that
    // mail for a moment: registerMember takes it out in the background).
    expect(registrationLinksQueued(site.url, owner.account.email)).toBe(1);
  });

  it('makes no account until the link is used', async () => {
    const email = freshAddress();
    expect((await new Browser(site.url).post('/api/auth/register', registration(email))).status).toBe(202);
    await mailTo(email, (mail) => LINK.test(mail.text));
    expect(await site.services.store.collection('member_credentials').find({ email })).toEqual([]);
    expect((await new Browser(site.url).post('/api/auth/login', { email, password: PASSWORD })).status).toBe(401);
  });

  it('still refuses a form that breaks a rule, with a message per field', async () => {
    const response = await new Browser(site.url).post('/api/auth/register', {
      email: 'not-an-email',
      password: 'short',
      firstName: '',
      lastName: 'X',
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.fields)).toEqual(expect.arrayContaining(['email', 'password', 'firstName']));
  });
});

describe('the link that finishes signing up', () => {
  it('opens a page that asks, then makes the account and signs in once', async () => {
    const email = freshAddress();
    const browser = new Browser(site.url);
    expect((await browser.post('/api/auth/register', registration(email, { firstName: 'Nina', lastName: 'New' }))).status).toBe(202);
    const mail = await mailTo(email, (m) => LINK.test(m.text));
    const path = linkPathIn(mail);

    // Opening it (as a mail scanner does) makes nothing and uses nothing up.
    for (let i = 0; i < 2; i++) {
      const opened = await new Browser(site.url).get(path);
      expect(opened.status).toBe(200);
      expect(opened.headers.get('cache-control')).toBe('no-store');
      expect(String(opened.body)).toContain(`<form method="post" action="${path}">`);
      expect(String(opened.body)).toContain(`${email[0]}•••@example.org`);
      expect(String(opened.body)).not.toContain(email);
    }
    expect(await site.services.store.collection('member_credentials').find({ email })).toEqual([]);

    const used = await browser.post(path);
    expect(used.status).toBe(303);
    expect(used.headers.get('location')).toBe('/');
    expect(used.headers.getSetCookie().some((line) => line.startsWith('bhc.sid='))).toBe(true);
    const me = await browser.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, firstName: 'Nina', lastName: 'New', role: 'member' });
    expect((await new Browser(site.url).post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200);

    // Spent: another press, from anywhere, makes nothing.
    const again = new Browser(site.url);
    const reused = await again.post(path);
    expect(reused.status).toBe(200);
    expect(String(reused.body)).toContain('Link not valid');
    expect((await again.get('/api/auth/user')).status).toBe(401);
    expect(String((await again.get(path)).body)).toContain('Link not valid');
    expect(await site.services.store.collection('member_credentials').find({ email })).toHaveLength(1);
  });

  it('keeps only the SHA-256 of its token, for 24 hours, and ends when they run out', async () => {
    const email = freshAddress();
    expect((await new Browser(site.url).post('/api/auth/register', registration(email))).status).toBe(202);
    const path = linkPathIn(await mailTo(email, (m) => LINK.test(m.text)));
    const token = path.split('/').at(-1)!;
    const { redis, config } = site.services;
    const key = `${config.redisPrefix}:registration-link:${createHash('sha256').update(token).digest('hex')}`;
    expect(await redis.exists(key)).toBe(1);
    expect(await redis.keys(`*${token}*`)).toEqual([]);
    const ttl = await redis.ttl(key);
    expect(ttl).toBeGreaterThan(23 * 3600);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);
    // The form's password is there only as its scrypt hash.
    expect(await redis.get(key)).not.toContain(PASSWORD);

    // Time passes: the 24 hours run out in Redis.
    await redis.pexpire(key, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const browser = new Browser(site.url);
    expect(String((await browser.get(path)).body)).toContain('Link not valid');
    const late = await browser.post(path);
    expect(late.status).toBe(200);
    expect(String(late.body)).toContain('Link not valid');
    expect((await browser.get('/api/auth/user')).status).toBe(401);
    expect(await site.services.store.collection('member_credentials').find({ email })).toEqual([]);
  });

  it('makes one account when two links for one address are both used', async () => {
    const email = freshAddress();
    await new Browser(site.url).post('/api/auth/register', registration(email, { lastName: 'First' }));
    await new Browser(site.url).post('/api/auth/register', registration(email, { lastName: 'Second' }));
    const mails = async () => (await site.services.mailbox.all()).filter((m) => m.to.includes(email) && LINK.test(m.text));
    await expect.poll(async () => (await mails()).length, { timeout: 10_000 }).toBe(2);
    const paths = (await mails()).map(linkPathIn);
    const outcomes = await Promise.all(paths.map((path) => new Browser(site.url).post(path)));
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([200, 303]);
    expect(String(outcomes.find((outcome) => outcome.status === 200)!.body)).toContain('This address already has an account');
    expect(await site.services.store.collection('member_credentials').find({ email })).toHaveLength(1);
  });

  it('is masked in the development mailbox, and counted per address like the other mailed links', async () => {
    const email = freshAddress();
    await new Browser(site.url).post('/api/auth/register', registration(email));
    const caught = await mailTo(email, (m) => LINK.test(m.text));
    const shown = await admin.get(`/api/admin/mailbox/${caught.id}`);
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).toContain('/api/auth/register/confirm/••••••');
    expect(JSON.stringify(shown.body)).not.toContain(linkPathIn(caught));
  });
});

describe('mailed links per address', () => {
  it('limit registrations to one address, with or without an account, alike', async () => {
    const limited = await startTestSite({ RATE_LIMIT_AUTH_MAX: '1000', RATE_LIMIT_MAIL_LINKS_MAX: '2' });
    try {
      const owner = await registerMember(limited.url);
      const fresh = freshAddress();
      const answers = async (email: string) => {
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) statuses.push((await new Browser(limited.url).post('/api/auth/register', registration(email))).status);
        return statuses;
      };
      // The owner's own registration counted one already; the new address is asked for once too.
      expect((await new Browser(limited.url).post('/api/auth/register', registration(fresh))).status).toBe(202);
      expect(await answers(owner.account.email)).toEqual([202, 429, 429]);
      expect(await answers(fresh)).toEqual([202, 429, 429]);
    } finally {
      await limited.close();
    }
  }, 120_000);
});
