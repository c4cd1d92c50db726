/** Monitoring figures move with reality; /metrics is for admins and the scraper's token only. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { startTestSite, type TestSite } from '../support/site';
import { Browser, registerMember } from '../support/http';
import { createTransport } from '../../platform/mail/transport';
import { startMailWorker } from '../../workers/mail';
import { workerJobs } from '../../workers/subscriptions';
import { commands, publishBlogPost, startCountingSmtp, subscribe } from './subscriptions/delivery-fixtures';
import Fastify from 'fastify';
import type { EventStore } from '../../platform/event-store/port';
import { createProjectionRunner } from '../../platform/projections/runner';
import { createProjectionProgress } from '../../platform/projections/progress';
import { healthRoutes } from '../../server/monitoring/health-routes';
import { registerValibotSchemas } from '../../server/http/openapi';

let site: TestSite;
let admin: Browser;
const sockets: Socket[] = [];

beforeAll(async () => {
  // Start-up requests on a busy test machine are slow; this file is not about the response-time alert.
  site = await startTestSite({ METRICS_TOKEN: 'scraper-token-0123456789', ALERT_RESPONSE_P95_MS: '10000' });
  admin = (await registerMember(site.url)).browser;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await site?.close();
});

const figures = async () => (await admin.get('/api/admin/monitoring')).body;

describe('monitoring', () => {
  it('counts active users from open connections', async () => {
    // The sign-up's last event may still be on its way to the read models on a busy machine.
    await expect.poll(async () => (await figures()).eventStore.lag).toBe(0);
    const before = await figures();
    expect(before).toMatchObject({
      health: 'healthy',
      activeUsers: 0,
      database: { status: 'connected', maxConnections: 10 },
      eventStore: { lag: 0 },
    });
    expect(before.storage.bytes).toBeGreaterThan(1_000_000);
    expect(before.uptimeSeconds).toBeGreaterThanOrEqual(0);

    for (let i = 0; i < 3; i++) {
      const { browser } = await registerMember(site.url);
      const socket = io(site.url, {
        path: '/socket.io',
        transports: ['websocket'],
        extraHeaders: { cookie: `bhc.sid=${browser.cookie('bhc.sid')}` },
      });
      sockets.push(socket);
      await new Promise((resolve) => socket.once('connect', () => resolve(undefined)));
    }
    await expect.poll(async () => (await figures()).activeUsers).toBe(3);
    expect((await figures()).sockets).toBe(3);
    sockets.pop()!.disconnect();
    await expect.poll(async () => (await figures()).activeUsers).toBe(2);
  });

  it('measures response times of real requests', async () => {
    for (let i = 0; i < 20; i++) await admin.get('/api/auth/user');
    const { responseTimeMs, requestsInWindow } = await figures();
    expect(requestsInWindow).toBeGreaterThanOrEqual(20);
    expect(responseTimeMs.p50).toBeGreaterThan(0);
    expect(responseTimeMs.p95).toBeGreaterThanOrEqual(responseTimeMs.p50);
  });

  it('shows projection lag growing while projections are paused, then falling', async () => {
    await site.services.runner.stop();
    for (let i = 0; i < 150; i++)
      await site.services.eventStore.append(`noise-${i}`, [{ type: 'Noise', data: {} }], { expectedVersion: 'any' });
    const paused = await figures();
    expect(paused.eventStore.lag).toBeGreaterThanOrEqual(150);
    expect(paused.alerts.map((a: { message: string }) => a.message)).toContainEqual(expect.stringMatching(/behind/));
    expect(paused.health).toBe('warning');
    expect(paused.eventStore.lagSeconds).toBeGreaterThanOrEqual(0);
    const ready = await new Browser(site.url).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.lag).toBeGreaterThanOrEqual(150);
    await site.services.runner.start();
    await expect.poll(async () => (await figures()).eventStore.lag, { timeout: 15_000 }).toBe(0);
    expect((await figures()).health).toBe('healthy');
  });

  it('reports in /readyz a runner whose subscription keeps dropping, until it subscribes again', async () => {
    let dropping = true;
    const { eventStore, store } = site.services;
    const flaky: EventStore = {
      ...eventStore,
      subscribeToAll(options) {
        if (dropping) throw new Error('14 UNAVAILABLE: leader changed');
        return eventStore.subscribeToAll(options);
      },
    };
    const progress = createProjectionProgress({ store, runnerName: 'probe', local: true });
    const runner = createProjectionRunner({
      name: 'probe',
      eventStore: flaky,
      store,
      projections: [],
      progress,
      logger: { info: () => undefined, error: () => undefined },
      resubscribeDelay: () => 20,
    });
    const app = Fastify();
    registerValibotSchemas(app);
    await app.register(healthRoutes, { services: { ...site.services, runner } });
    try {
      await runner.start();
      await expect.poll(() => runner.subscription().failures).toBeGreaterThanOrEqual(2);
      const dropped = await app.inject({ url: '/readyz' });
      expect(dropped.statusCode).toBe(503);
      expect(dropped.json().checks.projections).toMatch(/^subscribing again after \d+ failure\(s\): 14 UNAVAILABLE: leader changed$/);
      dropping = false;
      await eventStore.append('probe-1', [{ type: 'Noise', data: {} }], { expectedVersion: 'no_stream' });
      await expect.poll(() => runner.subscription().status, { timeout: 10_000 }).toBe('running');
      expect((await app.inject({ url: '/readyz' })).json().checks.projections).toBe('ok');
    } finally {
      await runner.stop();
      await app.close();
    }
  });

  it('serves Prometheus metrics to an admin or the scraper token only', async () => {
    expect((await new Browser(site.url).get('/metrics')).status).toBe(401);
    const { browser: member } = await registerMember(site.url);
    expect((await member.get('/metrics')).status).toBe(403);
    const scraped = await new Browser(site.url).request('GET', '/metrics', undefined, { authorization: 'Bearer scraper-token-0123456789' });
    expect(scraped.status).toBe(200);
    expect(scraped.body).toMatch(/^bhc_active_users \d+$/m);
    expect(scraped.body).toMatch(/^bhc_projection_lag_events \d+$/m);
    expect((await new Browser(site.url).request('GET', '/metrics', undefined, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await admin.get('/metrics')).status).toBe(200);
  });
});

describe('the mail outbox in the figures', () => {
  let mailSite: TestSite;
  let staff: Browser;
  const mailFigures = async () => (await staff.get('/api/admin/monitoring')).body;

  beforeAll(async () => {
    // No workers role: the test runs the mail runner itself and starts the sender when it chooses.
    mailSite = await startTestSite({
      ROLES: 'api,projections',
      ALERT_MAIL_BACKLOG_SECONDS: '2',
      ALERT_RESPONSE_P95_MS: '10000',
      METRICS_TOKEN: 'scraper-token-0123456789',
    });
    staff = (await registerMember(mailSite.url)).browser;
  });
  afterAll(async () => {
    await mailSite?.services.subscriptionMail.stop();
    await mailSite?.close();
  });

  it('counts mail queued while no worker sends, ages it into an alert, then shows it sent and bounced once a worker runs', async () => {
    const { services } = mailSite;
    expect((await mailFigures()).mail).toEqual({ queued: 0, oldestQueuedSeconds: 0, sentLastHour: 0, bounced: 0 });

    // The mail runner decides the mail and queues it; nothing sends it.
    await services.subscriptionMail.start();
    const handle = commands(services.eventStore);
    const secret = services.config.subscriptionLinkSecret;
    for (const email of ['reader-1@example.org', 'reader-2@example.org', 'bounce@example.org'])
      await subscribe(handle, secret, { email, type: 'blog_posts', frequency: 'immediate' });
    await publishBlogPost(handle, 'The first FM license in the state');
    await expect.poll(async () => (await mailFigures()).mail.queued, { timeout: 15_000 }).toBe(3);
    const queued = await mailFigures();
    // One job carries the three (a batch of outbox entries).
    expect(queued.queues.waiting).toBeGreaterThanOrEqual(1);

    // Waiting mail ages, and past ALERT_MAIL_BACKLOG_SECONDS the page says so.
    await expect.poll(async () => (await mailFigures()).mail.oldestQueuedSeconds, { timeout: 10_000 }).toBeGreaterThan(2);
    const late = await mailFigures();
    expect(late.mail.oldestQueuedSeconds).toBeGreaterThan(queued.mail.oldestQueuedSeconds);
    expect(late.mail.queued).toBe(3);
    expect(late.alerts.map((alert: { message: string }) => alert.message)).toContainEqual(
      expect.stringMatching(/^Mail backlog: the oldest queued mail has waited \d+ s$/),
    );
    expect(late.health).toBe('warning');
    const scraped = await new Browser(mailSite.url).request('GET', '/metrics', undefined, {
      authorization: 'Bearer scraper-token-0123456789',
    });
    expect(scraped.body).toMatch(/^bhc_mail_queued 3$/m);
    expect(Number(scraped.body.match(/^bhc_mail_oldest_queued_seconds (\d+)$/m)?.[1])).toBeGreaterThan(2);

    // A worker starts, against a relay that refuses one address for good.
    const smtp = await startCountingSmtp({ refuse: (address) => address.startsWith('bounce') });
    const transport = createTransport(`smtp://127.0.0.1:${smtp.port}`, 0);
    const worker = startMailWorker({
      connection: services.redis,
      prefix: services.config.redisPrefix,
      transport,
      from: services.config.mailFrom,
      subscriptionMail: workerJobs(services.subscriptionMail, transport),
    });
    try {
      await expect
        .poll(async () => (await mailFigures()).mail, { timeout: 15_000 })
        .toEqual({ queued: 0, oldestQueuedSeconds: 0, sentLastHour: 2, bounced: 1 });
      const after = await mailFigures();
      expect(after.alerts.map((alert: { message: string }) => alert.message)).not.toContainEqual(expect.stringMatching(/^Mail backlog/));
      expect(after.health).toBe('healthy');
      const metrics = (
        await new Browser(mailSite.url).request('GET', '/metrics', undefined, { authorization: 'Bearer scraper-token-0123456789' })
      ).body;
      expect(metrics).toMatch(/^bhc_mail_queued 0$/m);
      expect(metrics).toMatch(/^bhc_mail_oldest_queued_seconds 0$/m);
      expect(metrics).toMatch(/^bhc_mail_sent_last_hour 2$/m);
      expect(metrics).toMatch(/^bhc_mail_bounced 1$/m);
    } finally {
      await worker.close();
      transport.close();
      await smtp.close();
    }
  });
});
