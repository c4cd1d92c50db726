/**
 * Mail sent straight from a request (sign-in links, e-mail change links and notices) leaves nothing personal in
 * Redis once sent: no address, name or link in a kept job. Before, completed jobs kept all three for 7 days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, UNLIMITED_RATES, type TestSite } from '../../support/site';
import { Browser, registerMember } from '../../support/http';
import type { Queue } from 'bullmq';
import { startCountingSmtp, type CountingSmtp } from '../subscriptions/delivery-fixtures';

let smtp: CountingSmtp;
let site: TestSite;

beforeAll(async () => {
  smtp = await startCountingSmtp();
  site = await startTestSite({ ...UNLIMITED_RATES, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
});
afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

/** Every value under the site's Redis prefix, as text, but the pending e-mail change (its new address, until used). */
async function redisText(): Promise<string> {
  const { redis, config } = site.services;
  const parts: string[] = [];
  for (const key of await redis.keys(`${config.redisPrefix}:*`)) {
    if (key.includes(':email-change-link:')) continue;
    const type = await redis.type(key);
    parts.push(key);
    if (type === 'string') parts.push((await redis.getBuffer(key))?.toString('latin1') ?? '');
    else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
    else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
    else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
    else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, '0', '-1')));
    else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
  }
  return parts.join('\n');
}

describe('mail jobs in Redis', () => {
  it('keep no address, name or link once the mail is sent', async () => {
    const firstName = 'Philomena';
    const lastName = `Quillfeather${Date.now()}`;
    const { browser, account } = await registerMember(site.url, { firstName, lastName });
    const taken = await registerMember(site.url);
    const moved = `moved-${Date.now()}@example.org`;
    expect((await new Browser(site.url).post('/api/auth/magic-link', { email: account.email })).status).toBe(202);
    expect((await browser.post('/api/me/email', { email: moved, currentPassword: account.password })).status).toBe(202);
    expect((await browser.post('/api/me/email', { email: taken.account.email, currentPassword: account.password })).status).toBe(202);
    await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBe(3);
    const token = smtp.to(account.email.toLowerCase())[0]!.text.match(/\/api\/auth\/magic\/([\w-]+)/u)![1]!;
    await expect
      .poll(async () => (site.services.mail as unknown as { queue: Queue }).queue.getJobCounts('completed', 'active', 'wait'), {
        timeout: 5_000,
      })
      .toEqual({ completed: 0, active: 0, wait: 0 });

    const held = (await redisText()).toLowerCase();
    for (const personal of [account.email, moved, taken.account.email, lastName, token])
      expect(held.includes(personal.toLowerCase()), personal).toBe(false);
  });
});
