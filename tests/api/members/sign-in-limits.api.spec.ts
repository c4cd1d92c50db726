/**
 * Limits that no header resets: behind one trusted proxy (TRUST_PROXY=1) the client's address is the one that proxy
 * saw, not what the client wrote left of it; wrong passwords are limited per account and links per mailbox, from any
 * number of client addresses; and a flood of sign-ins for addresses nobody has costs no password hashing, so a real
 * member's sign-in stays as quick as alone. Before: 30 wrong passwords for one account from 30 forwarded addresses,
 * 40 links to one mailbox in a minute, and a member's sign-in 8 s instead of 0.4 s beside 40 callers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';
import { hashPassword } from '../../../server/members/passwords';

let site: TestSite;
const PASSWORD = 'correct horse battery';
/** A caller behind the one trusted proxy; `claimed` is what it writes in X-Forwarded-For itself. */
const from = (address: string, claimed?: string) => ({ 'x-forwarded-for': claimed ? `${claimed}, ${address}` : address });

beforeAll(async () => {
  // The per-client limits out of reach: what is tested here are the limits per account and per mailbox.
  const { RATE_LIMIT_ACCOUNT_FAILURES_MAX: _failures, RATE_LIMIT_MAIL_LINKS_MAX: _links, ...perClient } = UNLIMITED_RATES;
  site = await startTestSite({
    ...perClient,
    TRUST_PROXY: '1',
    RATE_LIMIT_ACCOUNT_FAILURES_MAX: '5',
    RATE_LIMIT_MAIL_LINKS_MAX: '3',
    SCRYPT_N: '65536',
  });
});
afterAll(async () => {
  await site?.close();
});

describe('per client address, behind a trusted proxy', () => {
  it('counts the address the proxy saw, whatever the client wrote before it', async () => {
    const limited = await startTestSite({ TRUST_PROXY: '1', RATE_LIMIT_AUTH_MAX: '3' }, site);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const answer = await new Browser(limited.url).request(
          'POST',
          '/api/auth/login',
          { email: `nobody${i}@example.org`, password: 'wrong' },
          from('203.0.113.5', `198.51.100.${i}`),
        );
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect(
        (
          await new Browser(limited.url).request(
            'POST',
            '/api/auth/login',
            { email: 'x@example.org', password: 'wrong' },
            from('203.0.113.6'),
          )
        ).status,
      ).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe('per account and per mailbox, from any number of addresses', () => {
  it('stops wrong passwords for one account after RATE_LIMIT_ACCOUNT_FAILURES_MAX, even with the right one, and the same for an address nobody has', async () => {
    const { account } = await registerMember(site.url);
    for (const email of [account.email, `nobody-${Date.now()}@example.org`]) {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++)
        statuses.push(
          (await new Browser(site.url).request('POST', '/api/auth/login', { email, password: `guess ${i}` }, from(`198.51.100.${i + 1}`)))
            .status,
        );
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    }
    const right = await new Browser(site.url).request(
      'POST',
      '/api/auth/login',
      { email: account.email.toUpperCase(), password: PASSWORD },
      from('198.51.100.99'),
    );
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(right.body.message).toMatch(/^Too many attempts/u);
  });

  it('a right password ends a run of wrong ones', async () => {
    const { account } = await registerMember(site.url);
    for (let i = 0; i < 4; i++)
      expect((await new Browser(site.url).post('/api/auth/login', { email: account.email, password: 'wrong' })).status).toBe(401);
    expect((await new Browser(site.url).post('/api/auth/login', { email: account.email, password: PASSWORD })).status).toBe(200);
    for (let i = 0; i < 4; i++)
      expect((await new Browser(site.url).post('/api/auth/login', { email: account.email, password: 'wrong' })).status).toBe(401);
  });

  it('mails at most RATE_LIMIT_MAIL_LINKS_MAX sign-in links to one mailbox, whoever asks, known or not', async () => {
    const { account } = await registerMember(site.url);
    // Registering mailed the member's mailbox its link, which the limit counts; a stranger's address is asked to
    // register too, so each mailbox has had one mailed link when the sign-in links are asked for.
    const stranger = `nobody-links-${Date.now()}@example.org`;
    const asked = await new Browser(site.url).post('/api/auth/register', { ...account, email: stranger });
    expect(asked.status).toBe(202);
    for (const email of [account.email, stranger]) {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await new Browser(site.url).request('POST', '/api/auth/magic-link', { email }, from(`192.0.2.${i + 1}`))).status);
      expect(statuses).toEqual([202, 202, 429, 429, 429]);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signInLinks = (await site.services.mailbox.all()).filter(
      (mail) => mail.to.includes(account.email.toLowerCase()) && mail.subject === 'Your sign-in link for Broadcast History Community',
    );
    expect(signInLinks).toHaveLength(2);
  });

  it('mails at most RATE_LIMIT_MAIL_LINKS_MAX e-mail change links to one address', async () => {
    const target = `target-${Date.now()}@example.org`;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { browser } = await registerMember(site.url);
      statuses.push((await browser.post('/api/me/email', { email: target, currentPassword: PASSWORD })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
  });
});

describe('password hashing under a flood', () => {
  it('spends no scrypt on 40 callers trying addresses nobody has, so a member signing in meanwhile waits for none', async () => {
    const { account } = await registerMember(site.url);
    const timed = async <T>(run: () => Promise<T>) => {
      const started = performance.now();
      const result = await run();
      return { ms: performance.now() - started, result };
    };
    // One hash at this cost, here: forty of them on the server's four hashing threads take ten times as long.
    const hash = (await timed(() => hashPassword(PASSWORD, { N: 65536, r: 8, p: 1 }))).ms;
    const flood = timed(() =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          new Browser(site.url).request(
            'POST',
            '/api/auth/login',
            { email: `flood-${i}-${Date.now()}@example.org`, password: 'guess' },
            from(`198.18.0.${i + 1}`),
          ),
        ),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    const member = await timed(() =>
      new Browser(site.url).request('POST', '/api/auth/login', { email: account.email, password: PASSWORD }, from('203.0.113.200')),
    );
    expect(member.result.status).toBe(200);
    const { ms, result } = await flood;
    expect(result.map((answer) => answer.status)).toEqual(Array(40).fill(401));
    // Each waited about one verification's time, side by side; with scrypt for each, the flood took 10 hashes' time or more.
    expect(ms).toBeLessThan(hash * 5 + 500);
    expect(member.ms).toBeLessThan(hash * 5 + 500);
  });
});
