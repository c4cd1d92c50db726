/**
 * Faults during a fan-out, with the workers role in a child process (`main/main.ts`, ROLES=workers) mailing a
 * few hundred subscribers through an SMTP server in this process:
 * - SIGKILL mid-fan-out, then a new worker: every recipient gets the mail, nobody two different messages; exact
 *   resends (same Message-ID) can only come from the crash window and are counted;
 * - SIGTERM mid-fan-out: the mails begun finish, the rest of each batch is handed back, and with a new worker
 *   everyone gets exactly one;
 * - a private Redis killed with -9 and started again empty on the same port: everyone gets exactly one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { pino } from 'pino';
import { loadConfig } from '../../platform/config';
import { createServices, type Services } from '../../main/services';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from '../support/database';
import { childProcesses, freePort, stop } from '../support/processes';
import { mailOutbox } from '../../workers/subscriptions/outbox';
import { UNMARKED_AT_MOST } from '../../workers/subscriptions/delivery';
import {
  commands,
  publishBlogPost,
  startCountingSmtp,
  subscribe,
  type Commands,
  type CountingSmtp,
} from '../api/subscriptions/delivery-fixtures';

const SUBSCRIBERS = 300;
const SESSION_SECRET = 'test-secret-test-secret-test-secret-0123';
const PUBLIC_URL = 'https://community.example.org';

let database: TestDatabase;
let services: Services;
let handle: Commands;
const processes = childProcesses();

// A database per test, so each fan-out goes to its own subscribers only.
beforeEach(async () => {
  database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_PREFIX: testRedisPrefix(),
    ROLES: 'api',
    SESSION_SECRET,
    LOG_LEVEL: 'warn',
    PUBLIC_URL,
  });
  services = await createServices(config, pino({ level: 'warn' }));
  handle = commands(services.eventStore);
});

afterEach(async () => {
  await processes.stopAll();
  await services?.close();
  await database?.drop();
});

/** The workers role as its own process. */
function startWorkers(env: { REDIS_URL?: string; REDIS_PREFIX: string; SMTP_URL: string }): ChildProcess {
  return processes.start('main/main.ts', {
    NODE_ENV: 'test',
    ROLES: 'workers',
    DATABASE_URL: database.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    SESSION_SECRET,
    LOG_LEVEL: 'warn',
    PUBLIC_URL,
    ...env,
  });
}

const until = processes.until;

/** SUBSCRIBERS immediate subscribers of everything, then one blog publication: the fan-out to interrupt. */
async function fanOut(run: string) {
  const emails = Array.from({ length: SUBSCRIBERS }, (_, i) => `${run}-${i}@example.org`);
  for (const email of emails)
    await subscribe(handle, services.config.subscriptionLinkSecret, { email, type: 'all', frequency: 'immediate' });
  const blogId = await publishBlogPost(handle, `Fan-out ${run}`);
  return { emails, blogId };
}

/** Per recipient: how many mails, and how many different Message-IDs. */
function tally(smtp: CountingSmtp, emails: string[]) {
  const perRecipient = emails.map((email) => smtp.to(email));
  return {
    missing: perRecipient.filter((mails) => mails.length === 0).length,
    differentMessages: perRecipient.filter((mails) => new Set(mails.map((mail) => mail.messageId)).size > 1).length,
    exactDuplicates: perRecipient.reduce((sum, mails) => sum + Math.max(0, mails.length - 1), 0),
  };
}

const queued = () => mailOutbox(services.store).countDocuments({ status: 'queued' });

describe('a fan-out survives', () => {
  it('SIGKILL of the worker mid-fan-out: every recipient gets the mail, never two different messages', async () => {
    const smtp = await startCountingSmtp({ delayMs: 15 });
    try {
      const prefix = testRedisPrefix();
      const { emails } = await fanOut('kill');
      const first = startWorkers({ REDIS_PREFIX: prefix, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
      await until(() => smtp.received.length >= SUBSCRIBERS / 4, 60_000, 'the fan-out to start');
      await stop(first, 'SIGKILL');
      const atKill = smtp.received.length;
      expect(atKill).toBeLessThan(SUBSCRIBERS);

      const restarted = Date.now();
      startWorkers({ REDIS_PREFIX: prefix, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
      await until(async () => tally(smtp, emails).missing === 0 && (await queued()) === 0, 150_000, 'every recipient');
      const result = tally(smtp, emails);
      console.log(
        `SIGKILL after ${atKill} of ${SUBSCRIBERS} mails; all delivered ${Date.now() - restarted} ms after the restart: ` +
          `${result.exactDuplicates} exact resends (same Message-ID), ${result.differentMessages} recipients with two different messages`,
      );
      expect(result.differentMessages).toBe(0);
      // Only mail in the crash window can go twice: handed to the relay and not yet marked sent.
      expect(result.exactDuplicates).toBeLessThanOrEqual(UNMARKED_AT_MOST);
    } finally {
      await smtp.close();
    }
  }, 200_000);

  it('SIGTERM of the worker mid-fan-out: the mails begun finish, and everyone gets exactly one', async () => {
    const smtp = await startCountingSmtp({ delayMs: 15 });
    try {
      const prefix = testRedisPrefix();
      const { emails } = await fanOut('term');
      const first = startWorkers({ REDIS_PREFIX: prefix, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
      await until(() => smtp.received.length >= SUBSCRIBERS / 4, 60_000, 'the fan-out to start');
      await stop(first, 'SIGTERM');
      expect(first.exitCode).toBe(0);
      expect(smtp.received.length).toBeLessThan(SUBSCRIBERS);

      startWorkers({ REDIS_PREFIX: prefix, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
      await until(async () => tally(smtp, emails).missing === 0 && (await queued()) === 0, 150_000, 'every recipient');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(tally(smtp, emails)).toEqual({ missing: 0, differentMessages: 0, exactDuplicates: 0 });
    } finally {
      await smtp.close();
    }
  }, 200_000);

  it('a Redis restart (kill -9, started again empty) mid-fan-out: everyone gets exactly one', async () => {
    const smtp = await startCountingSmtp({ delayMs: 15 });
    const port = await freePort();
    const redis = await processes.redis(port);
    try {
      const { emails } = await fanOut('redis');
      startWorkers({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: 'bhc', SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
      await until(() => smtp.received.length >= SUBSCRIBERS / 4, 60_000, 'the fan-out to start');
      await stop(redis, 'SIGKILL');
      const atKill = smtp.received.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      await processes.redis(port);
      await until(async () => tally(smtp, emails).missing === 0 && (await queued()) === 0, 150_000, 'every recipient');
      await new Promise((resolve) => setTimeout(resolve, 500));
      console.log(`Redis killed after ${atKill} of ${SUBSCRIBERS} mails`);
      expect(atKill).toBeLessThan(SUBSCRIBERS);
      expect(tally(smtp, emails)).toEqual({ missing: 0, differentMessages: 0, exactDuplicates: 0 });
    } finally {
      await processes.stopAll('SIGTERM');
      await smtp.close();
    }
  }, 200_000);
});
