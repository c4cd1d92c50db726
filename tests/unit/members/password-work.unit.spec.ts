/**
 * Password hashing has a bound (at most `concurrency` at once, `queue` waiting, then 503), and an address without an
 * account costs no scrypt after the first: it waits as long as verifications have lately taken. Also: TRUST_PROXY
 * trusts a hop count or listed addresses, never any proxy.
 */
import { describe, expect, it } from 'vitest';
import { createPasswordWork, hashPassword } from '../../../server/members/passwords';
import { RefusedForNowError } from '../../../server/http/errors';
import { ConfigError, loadConfig } from '../../../platform/config';

const COST = { N: 1024, r: 8, p: 1 };
const base = { NODE_ENV: 'test', SESSION_SECRET: 'x'.repeat(32) } as const;

describe('password work', () => {
  it('runs at most `concurrency` hashes at once, queues `queue` more, and refuses the rest with a 503 that says when to retry', async () => {
    const work = createPasswordWork(COST, { concurrency: 1, queue: 2 });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => work.hash('correct horse battery')));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    const refused = (results[3] as PromiseRejectedResult).reason as RefusedForNowError;
    expect(refused).toBeInstanceOf(RefusedForNowError);
    expect(refused.status).toBe(503);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    // Once the queue has drained, there is room again.
    await expect(work.hash('correct horse battery')).resolves.toMatch(/^scrypt\$/u);
  });

  it('verifies passwords as before, and answers false for an address without an account in about a verification’s time', async () => {
    const work = createPasswordWork({ N: 16384, r: 8, p: 1 }, { concurrency: 2, queue: 16 });
    const stored = await hashPassword('correct horse battery', { N: 16384, r: 8, p: 1 });
    expect(await work.verify('correct horse battery', stored)).toBe(true);
    expect(await work.verify('wrong', stored)).toBe(false);
    const timed = async (run: () => Promise<unknown>) => {
      const started = performance.now();
      await run();
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await timed(() => work.verify('wrong', stored)));
      unknown.push(await timed(() => work.withoutAccount('wrong')));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2]!;
    // Within a factor of four either way: the unknown address waits out the verifications' running average, and a busy
    // machine (CI runs kill -9 soaks beside this) stretches a real verification more than a timer; an answer that did
    // no waiting at all would take well under a tenth.
    expect(median(unknown)).toBeGreaterThan(median(known) / 4);
    expect(median(unknown)).toBeLessThan(median(known) * 4);
  }, 30_000);

  it('spends no scrypt on addresses without an account while members verify theirs', async () => {
    const work = createPasswordWork(COST, { concurrency: 1, queue: 0 });
    await work.withoutAccount('first one measures');
    // With no room in the queue, a real verification now would be refused; fifty unknown addresses take none of it.
    const unknown = Promise.all(Array.from({ length: 50 }, () => work.withoutAccount('guess')));
    const stored = await hashPassword('correct horse battery', COST);
    expect(await work.verify('correct horse battery', stored)).toBe(true);
    expect(await unknown).toEqual(Array(50).fill(false));
  });
});

describe('TRUST_PROXY', () => {
  it('takes a hop count or a list of addresses and networks', () => {
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,::1' }).trustProxy).toEqual(['10.0.0.0/8', '192.0.2.7', '::1']);
  });

  it('refuses "true", which would let a client name its own address in X-Forwarded-For, and anything unclear', () => {
    for (const value of ['true', 'yes', '10.0.0.0/33', 'proxy.example.org', '1.5'])
      expect(() => loadConfig({ ...base, TRUST_PROXY: value }), value).toThrow(ConfigError);
  });
});
