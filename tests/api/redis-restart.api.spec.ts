/**
 * A Redis restart under traffic: a whole site (every role in this process) whose Redis is a private redis-server,
 * with members reading the feed and their account, staff posting to the newsfeed (each post mails every immediate
 * newsfeed subscriber) and members signing in all the while. The Redis is killed with -9 and started again empty
 * on the same port. Then:
 * - 5xx answers only come between the kill and the end of a short reconnect window after the restart;
 * - after that window every request succeeds, except one 401 per session created before the kill (an empty Redis
 *   has no sessions: the member signs in again), and sessions created after the restart work;
 * - every subscriber gets exactly one mail per post in the log: the outbox re-enqueues what the lost queue held;
 * - every error on the way is in the log: nothing is printed past it (BullMQ prints the errors nobody hears).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';
import { childProcesses, freePort, stop } from '../support/processes';
import { startCountingSmtp, type CountingSmtp } from './subscriptions/delivery-fixtures';
import { mailOutbox, outboxId } from '../../workers/subscriptions/outbox';
import { messageIdFor } from '../../workers/subscriptions/delivery';
import { mailAddressKey } from '../../platform/mail/link-tokens';
import type { PostEvent } from '../../shared/feed/post-stream';

const SUBSCRIBERS = 4;
/** Mails sent at once; with a slow relay, a burst of posts leaves most of its mail waiting in the queue. */
const MAIL_CONCURRENCY = 2;
const PASSWORD = 'correct horse battery';
/** How long Redis stays down, and how long traffic goes on after it is back. */
const DOWN_MS = 2_000;
const AFTER_MS = 8_000;
/** The longest reconnect window accepted: ioredis retries at most every 2 s, and the site must be whole again soon after. */
const RECONNECT_WINDOW_MS = 3_000;

const processes = childProcesses();
let smtp: CountingSmtp;
let site: TestSite;
let redisPort: number;
let redisServer: ChildProcess;

interface Account {
  email: string;
  browser: Browser;
  /** When the current session was made (the sign-in's answer arrived). */
  sessionAt: number;
}

interface Call {
  who: string;
  method: string;
  path: string;
  startedAt: number;
  endedAt: number;
  status: number;
  sessionAt: number | null;
}
const calls: Call[] = [];

async function call(who: string, account: Account | null, browser: Browser, method: string, path: string, body?: unknown) {
  const startedAt = Date.now();
  const sessionAt = account?.sessionAt ?? null;
  let status: number;
  try {
    status = (await browser.request(method, path, body)).status;
  } catch {
    // No answer at all (the connection failed): counted as a server failure.
    status = 599;
  }
  calls.push({ who, method, path, startedAt, endedAt: Date.now(), status, sessionAt });
  return status;
}

async function signIn(who: string, account: Account) {
  account.browser.forgetCookies();
  if ((await call(who, null, account.browser, 'POST', '/api/auth/login', { email: account.email, password: PASSWORD })) === 200)
    account.sessionAt = Date.now();
}

/** A signed-in request; a 401 (the session is gone) signs in again, as the browser app sends its member to sign in. */
async function asMember(who: string, account: Account, method: string, path: string, body?: unknown) {
  const status = await call(who, account, account.browser, method, path, body);
  if (status === 401) await signIn(who, account);
  return status;
}

let members: Account[] = [];
let writers: Account[] = [];
let subscriptionIds: string[] = [];

beforeAll(async () => {
  smtp = await startCountingSmtp({ delayMs: 50 });
  redisPort = await freePort();
  redisServer = await processes.redis(redisPort);
  site = await startTestSite({
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    // Every client here shares one address: limits still count in Redis, without refusing this traffic.
    RATE_LIMIT_POST_MAX: '100000',
    RATE_LIMIT_AUTH_MAX: '100000',
    MAIL_CONCURRENCY: String(MAIL_CONCURRENCY),
  });
  const account = async (firstName: string): Promise<Account> => {
    const { browser, account } = await registerMember(site.url, { firstName, lastName: 'Traffic', password: PASSWORD });
    return { email: account.email, browser, sessionAt: Date.now() };
  };
  const admin = await account('Ada');
  const staff = await account('Stan');
  expect(
    (await admin.browser.put(`/api/admin/users/${(await staff.browser.get('/api/auth/user')).body.id}/role`, { role: 'staff' })).status,
  ).toBe(200);
  writers = [admin, staff];
  members = [];
  for (let i = 0; i < SUBSCRIBERS; i++) members.push(await account(`Reader${i}`));
  subscriptionIds = [];
  for (const member of members) {
    const response = await member.browser.post('/api/subscriptions', { subscriptionType: 'newsfeed', frequency: 'immediate' });
    expect(response.status).toBe(201);
    subscriptionIds.push(response.body.id);
  }
}, 60_000);

afterAll(async () => {
  await site?.close();
  await processes.stopAll();
  await smtp?.close();
});

const queued = () => mailOutbox(site.services.store).countDocuments({ status: 'queued' });

describe('a Redis restart under traffic', () => {
  it('answers 5xx only until shortly after Redis is back, keeps new sessions, and loses no mail', async () => {
    const printed = vi.spyOn(console, 'error');
    let running = true;
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const loops = [
      ...members.map(async (member, i) => {
        while (running) {
          await asMember(`reader${i}`, member, 'GET', '/api/posts?limit=10');
          await asMember(`reader${i}`, member, 'GET', '/api/auth/user');
          await pause(50);
        }
      }),
      ...writers.map(async (writer, i) => {
        for (let n = 0; running; n++) {
          await asMember(`writer${i}`, writer, 'POST', '/api/posts', { content: `Traffic post ${i}-${n} about the old transmitter` });
          await pause(250);
        }
      }),
      (async () => {
        // A member signing in afresh, again and again: each new session must work at once.
        const newcomer: Account = { email: members[0]!.email, browser: new Browser(site.url), sessionAt: 0 };
        while (running) {
          await signIn('newcomer', newcomer);
          await call('newcomer', newcomer, newcomer.browser, 'GET', '/api/auth/user');
          await pause(200);
        }
      })(),
    ];

    await pause(2_000);
    await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        asMember('burst', writers[0]!, 'POST', '/api/posts', { content: `Burst post ${n} before the outage` }),
      ),
    );
    // Kill once more mail waits than the worker is sending, so the lost queue holds mail only the outbox still knows of
    // (the outbox is filled by the subscriptions projection shortly after the posts' answers).
    let queuedAtKill = 0;
    await processes.until(async () => (queuedAtKill = await queued()) > MAIL_CONCURRENCY, 5_000, 'mail waiting in the outbox');
    const killedAt = Date.now();
    await stop(redisServer, 'SIGKILL');
    await pause(DOWN_MS);
    await processes.redis(redisPort);
    const backAt = Date.now();
    await pause(AFTER_MS);
    running = false;
    await Promise.all(loops);

    const failures = calls.filter((c) => c.status >= 500);
    const failureWindow = Math.max(0, ...failures.map((c) => c.endedAt - backAt));
    // Requests caught by the outage wait for Redis (ioredis queues their commands) and are answered once it is back.
    const caught = calls.filter((c) => c.startedAt < backAt && c.endedAt > killedAt);
    const resumedAfter = Math.max(0, ...caught.map((c) => c.endedAt - backAt));
    console.log(
      `${calls.length} requests; Redis down ${backAt - killedAt} ms with ${queuedAtKill} mails queued; ${failures.length} 5xx ` +
        `(${[...new Set(failures.map((c) => c.status))].join(', ') || 'none'}, the last ${failureWindow} ms after Redis was back); ` +
        `${caught.length} requests caught by the outage, all answered ${resumedAfter} ms after Redis was back ` +
        `(${caught.filter((c) => c.status < 400).length} succeeded, ${caught.filter((c) => c.status === 401).length} found their session gone)`,
    );
    expect(failures.filter((c) => c.startedAt < killedAt)).toEqual([]);
    expect(failureWindow).toBeLessThanOrEqual(RECONNECT_WINDOW_MS);
    expect(resumedAfter).toBeLessThanOrEqual(RECONNECT_WINDOW_MS);

    // After the window, everything succeeds but the first request of a session Redis lost.
    const after = calls.filter((c) => c.startedAt > backAt + RECONNECT_WINDOW_MS);
    expect(after.length).toBeGreaterThan(100);
    expect(after.filter((c) => c.status >= 300 && !(c.status === 401 && c.sessionAt !== null && c.sessionAt < killedAt))).toEqual([]);
    const newSessions = after.filter((c) => c.who === 'newcomer' && c.path === '/api/auth/user');
    expect(newSessions.length).toBeGreaterThan(5);
    expect(newSessions.every((c) => c.status === 200)).toBe(true);

    // Every post in the log, mailed exactly once to every subscriber.
    const posts = (await site.services.pool.query<{ data: PostEvent['data'] }>(`SELECT data FROM events WHERE type = 'PostSubmitted'`))
      .rows;
    expect(posts.length).toBeGreaterThan(20);
    const expected = subscriptionIds.flatMap((subscriptionId, i) =>
      posts.map(({ data }) => {
        const address = mailAddressKey(site.services.config.subscriptionLinkSecret, members[i]!.email);
        return messageIdFor(
          outboxId(subscriptionId, { kind: 'item', content: 'post', itemId: (data as { id: string }).id, address }),
          site.services.config.publicUrl,
        );
      }),
    );
    // Well within the sweeper's minute: the outbox is enqueued again as soon as Redis is ready.
    await processes.until(async () => smtp.received.length >= expected.length && (await queued()) === 0, 30_000, 'every mail');
    await pause(500);
    expect(smtp.received.map((mail) => mail.messageId).sort()).toEqual(expected.sort());
    expect(printed.mock.calls).toEqual([]);
  }, 120_000);
});
