/**
 * Measured figures for the monitoring page and /metrics: response times from a
 * rolling window of this process's requests, the database pool and size, the
 * event store head and projection lag, queue depths, the mail outbox, sockets and
 * presence, and alerts derived from configurable thresholds.
 */
import { failedProjections } from '../../platform/projections/status';
import type { FastifyInstance } from 'fastify';
import { Registry, Gauge, collectDefaultMetrics } from 'prom-client';
import type * as v from 'valibot';
import type { AlertSchema, ThresholdsSchema } from '../../shared/monitoring/schemas';
import type { ApiDependencies } from '../dependencies';
import type { Realtime } from '../realtime/gateway';
import { publishedPostCount } from '../../projections/feed';
import { runnerLag } from '../../platform/projections/progress';

const WINDOW_MS = 5 * 60_000;
/** Lag is counted up to this many events: enough for any threshold, cheap on every store. */
const LAG_COUNT_CAP = 10_000;

export type Thresholds = v.InferOutput<typeof ThresholdsSchema>;
export type Alert = v.InferOutput<typeof AlertSchema>;

export const DEFAULT_THRESHOLDS: Thresholds = {
  responseP95Ms: 500,
  projectionLag: 100,
  poolUsage: 0.8,
  failedJobs: 1,
  storageUsage: 0.8,
  mailBacklogSeconds: 600,
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Durations of recent requests, in a rolling window. */
export function createResponseTimes(now: () => number = Date.now) {
  let samples: { at: number; ms: number }[] = [];
  return {
    record(ms: number) {
      samples.push({ at: now(), ms });
      if (samples.length > 20_000) samples = samples.slice(-10_000);
    },
    summary() {
      const since = now() - WINDOW_MS;
      samples = samples.filter((sample) => sample.at >= since);
      const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
      return { p50: Math.round(percentile(sorted, 50) * 10) / 10, p95: Math.round(percentile(sorted, 95) * 10) / 10, count: sorted.length };
    },
  };
}

export function alertsFor(
  figures: {
    responseP95Ms: number;
    lag: number;
    poolInUse: number;
    poolMax: number;
    failedJobs: number;
    storageBytes: number;
    storageQuotaBytes: number | null;
    projectionsStopped: boolean;
    projectionsResubscribing?: string | null;
    oldestQueuedMailSeconds: number;
  },
  thresholds: Thresholds,
): Alert[] {
  const alerts: Alert[] = [];
  if (figures.projectionsStopped) alerts.push({ level: 'critical', message: 'Projections have stopped: read models are not updating' });
  if (figures.projectionsResubscribing)
    alerts.push({
      level: 'warning',
      message: `Projections lost their subscription (${figures.projectionsResubscribing}) and are subscribing again`,
    });
  if (figures.lag > thresholds.projectionLag)
    alerts.push({
      level: 'warning',
      message: `Read models are ${figures.lag >= LAG_COUNT_CAP ? `over ${LAG_COUNT_CAP.toLocaleString('en-US')}` : figures.lag} events behind`,
    });
  if (figures.responseP95Ms > thresholds.responseP95Ms)
    alerts.push({ level: 'warning', message: `Slow responses: p95 ${figures.responseP95Ms} ms` });
  if (figures.poolMax > 0 && figures.poolInUse / figures.poolMax >= thresholds.poolUsage)
    alerts.push({ level: 'warning', message: `Database pool ${figures.poolInUse} of ${figures.poolMax} connections in use` });
  if (figures.failedJobs >= thresholds.failedJobs)
    alerts.push({ level: 'warning', message: `${figures.failedJobs} background job(s) failed` });
  if (figures.storageQuotaBytes && figures.storageBytes / figures.storageQuotaBytes >= thresholds.storageUsage)
    alerts.push({
      level: 'warning',
      message: `Storage at ${Math.round((figures.storageBytes / figures.storageQuotaBytes) * 100)}% of its quota`,
    });
  if (figures.oldestQueuedMailSeconds > thresholds.mailBacklogSeconds)
    alerts.push({ level: 'warning', message: `Mail backlog: the oldest queued mail has waited ${figures.oldestQueuedMailSeconds} s` });
  return alerts;
}

export type MonitoringNeeds = 'pool' | 'eventStore' | 'runner' | 'presence' | 'mailFigures' | 'store';

export function createMonitoring(
  services: Pick<ApiDependencies, MonitoringNeeds>,
  realtime: Realtime,
  options: { thresholds?: Thresholds; storageQuotaBytes?: number | null } = {},
) {
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
  const responseTimes = createResponseTimes();
  const started = Date.now();

  async function snapshot() {
    const { pool, eventStore, runner, presence, mailFigures, store } = services;
    const [head, lag, dbSize, connections, { jobs: queue, scheduledJobs, outbox }, online, totalPosts] = await Promise.all([
      eventStore.headPosition(),
      runnerLag({ eventStore, store, runnerName: runner.name, cap: LAG_COUNT_CAP }),
      pool.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes').then((r) => Number(r.rows[0]!.bytes)),
      pool
        .query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()')
        .then((r) => r.rows[0]!.n),
      mailFigures(),
      presence.online(),
      publishedPostCount(store),
    ]);
    const times = responseTimes.summary();
    const poolMax = pool.options.max ?? 10;
    const poolInUse = pool.totalCount - pool.idleCount;
    const failed = await failedProjections(store);
    const subscription = runner.subscription();
    const resubscribing = subscription.status === 'resubscribing' ? subscription.reason : null;
    const alerts = alertsFor(
      {
        responseP95Ms: times.p95,
        lag: lag.events,
        projectionsResubscribing: resubscribing,
        poolInUse,
        poolMax,
        failedJobs: queue.failed ?? 0,
        storageBytes: dbSize,
        storageQuotaBytes: options.storageQuotaBytes ?? null,
        projectionsStopped: failed.length > 0,
        oldestQueuedMailSeconds: outbox.oldestQueuedSeconds,
      },
      thresholds,
    );
    const health = alerts.some((a) => a.level === 'critical') ? 'critical' : alerts.length > 0 ? 'warning' : 'healthy';
    return {
      health,
      activeUsers: online.length,
      totalPosts,
      responseTimeMs: { p50: times.p50, p95: times.p95 },
      requestsInWindow: times.count,
      uptimeSeconds: Math.round((Date.now() - started) / 1000),
      database: { status: 'connected', connections: poolInUse, maxConnections: poolMax, serverConnections: connections },
      storage: {
        status: options.storageQuotaBytes && dbSize / options.storageQuotaBytes >= thresholds.storageUsage ? 'warning' : 'ok',
        bytes: dbSize,
        quotaBytes: options.storageQuotaBytes ?? null,
      },
      eventStore: {
        head,
        lag: lag.events,
        lagSeconds: Math.round(lag.seconds),
        projections: failed.length > 0 ? 'stopped' : subscription.status,
        stoppedProjections: failed.map((projection) => projection.name),
      },
      // Waiting: jobs to run, now or on a retry's backoff. Each digest schedule keeps one delayed job for its next
      // run; those are the schedule, not work waiting, and are counted apart.
      queues: {
        waiting: Math.max(0, (queue.waiting ?? 0) + (queue.delayed ?? 0) - scheduledJobs),
        active: queue.active ?? 0,
        failed: queue.failed ?? 0,
        scheduled: scheduledJobs,
      },
      // The outbox, not BullMQ, is the record of subscription mail: a failed job leaves the queue, its entry stays queued.
      mail: outbox,
      sockets: realtime.socketCount(),
      alerts,
    };
  }

  return { responseTimes, snapshot, thresholds };
}

export type Monitoring = ReturnType<typeof createMonitoring>;
export type MonitoringSnapshot = Awaited<ReturnType<Monitoring['snapshot']>>;

/** The same figures in Prometheus text format, read when scraped. */
export function prometheusRegistry(monitoring: Monitoring) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'bhc_process_' });
  let latest: Promise<MonitoringSnapshot> | null = null;
  const read = () => (latest ??= monitoring.snapshot().finally(() => setTimeout(() => (latest = null), 100)));
  const gauge = (name: string, help: string, value: (s: MonitoringSnapshot) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(value(await read()));
      },
    });
  /** How long the oldest of something waiting has waited, in seconds (0 when nothing waits). */
  const ageGauge = (name: string, oldest: string, value: (s: MonitoringSnapshot) => number) =>
    gauge(name, `Age of the oldest ${oldest} (0 when none)`, value);
  gauge('bhc_active_users', 'Members with an open connection', (s) => s.activeUsers);
  gauge('bhc_posts_total', 'Posts in the newsfeed', (s) => s.totalPosts);
  gauge('bhc_response_time_p50_ms', 'Median API response time over 5 minutes', (s) => s.responseTimeMs.p50);
  gauge('bhc_response_time_p95_ms', '95th percentile API response time over 5 minutes', (s) => s.responseTimeMs.p95);
  gauge('bhc_db_pool_in_use', 'Database pool connections in use', (s) => s.database.connections);
  gauge('bhc_db_pool_max', 'Database pool size', (s) => s.database.maxConnections);
  gauge('bhc_db_size_bytes', 'Database size', (s) => s.storage.bytes);
  gauge('bhc_event_store_head', 'Global position of the newest event', (s) => s.eventStore.head);
  gauge('bhc_projection_lag_events', 'Events not yet applied to the read models (counted up to 10,000)', (s) => s.eventStore.lag);
  ageGauge('bhc_projection_lag_seconds', 'event not yet applied to the read models', (s) => s.eventStore.lagSeconds);
  gauge('bhc_projection_resubscribing', '1 while the read models subscribe again after their subscription dropped', (s) =>
    Number(s.eventStore.projections === 'resubscribing'),
  );
  gauge('bhc_queue_waiting', 'Mail jobs waiting', (s) => s.queues.waiting);
  gauge('bhc_queue_failed', 'Mail jobs failed', (s) => s.queues.failed);
  gauge('bhc_mail_queued', 'Subscription mails in the outbox still to send', (s) => s.mail.queued);
  ageGauge('bhc_mail_oldest_queued_seconds', 'subscription mail still to send', (s) => s.mail.oldestQueuedSeconds);
  gauge('bhc_mail_sent_last_hour', 'Subscription mails accepted by the relay in the last hour', (s) => s.mail.sentLastHour);
  gauge('bhc_mail_bounced', 'Subscription mails refused for good by the relay', (s) => s.mail.bounced);
  gauge('bhc_sockets', 'Sockets connected to this process', (s) => s.sockets);
  gauge('bhc_alerts', 'Active alerts', (s) => s.alerts.length);
  return registry;
}

export function recordResponseTimes(app: FastifyInstance, monitoring: Monitoring) {
  app.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/api/')) monitoring.responseTimes.record(reply.elapsedTime);
  });
}
