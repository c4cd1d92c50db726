/** What GET /api/admin/monitoring answers (staff), the monitoring page's figures, and the health probes. */
import * as v from 'valibot';

const count = v.pipe(v.number(), v.minValue(0));

export const AlertSchema = v.object({ level: v.picklist(['warning', 'critical']), message: v.string() });

export const ThresholdsSchema = v.object({
  /** p95 response time above which an alert is raised, in ms. */
  responseP95Ms: v.number(),
  /** Projection lag, in events. */
  projectionLag: v.number(),
  /** Share of the database pool in use. */
  poolUsage: v.number(),
  failedJobs: v.number(),
  /** Database size, as a share of STORAGE_QUOTA_BYTES. */
  storageUsage: v.number(),
  /** Age of the oldest mail still queued in the outbox, in seconds. */
  mailBacklogSeconds: v.number(),
});

export const MonitoringSnapshotSchema = v.object({
  health: v.picklist(['healthy', 'warning', 'critical']),
  activeUsers: count,
  totalPosts: count,
  responseTimeMs: v.object({ p50: count, p95: count }),
  requestsInWindow: count,
  uptimeSeconds: count,
  database: v.object({ status: v.literal('connected'), connections: count, maxConnections: count, serverConnections: count }),
  storage: v.object({ status: v.picklist(['ok', 'warning']), bytes: count, quotaBytes: v.nullable(count) }),
  /**
   * `head`: the newest event's position (opaque: KurrentDB counts bytes). `lag`: events the read models have still
   * to apply (counted up to 10,000); `lagSeconds`: how long ago the oldest of them was recorded.
   */
  eventStore: v.object({
    head: count,
    lag: count,
    lagSeconds: count,
    projections: v.picklist(['running', 'resubscribing', 'stopped']),
    /** The projections that stopped on an event (each stops alone; the others go on). */
    stoppedProjections: v.array(v.string()),
  }),
  /** Background jobs: waiting to run (including retries), running, failed; `scheduled` repeating jobs (the digests) are not waiting. */
  queues: v.object({ waiting: count, active: count, failed: count, scheduled: count }),
  mail: v.object({ queued: count, oldestQueuedSeconds: count, sentLastHour: count, bounced: count }),
  /** Sockets connected to the API process that answered. */
  sockets: count,
  alerts: v.array(AlertSchema),
});

export const MonitoringSchema = v.object({
  ...MonitoringSnapshotSchema.entries,
  /** The hosting provider's usage and billing pages, when configured. */
  links: v.object({ usage: v.nullable(v.string()), billing: v.nullable(v.string()) }),
  thresholds: ThresholdsSchema,
});
export type Monitoring = v.InferOutput<typeof MonitoringSchema>;

export const LivenessSchema = v.object({ status: v.literal('ok') });
export const ReadinessSchema = v.object({
  status: v.picklist(['ready', 'not ready']),
  /** Each dependency: 'ok' or what is wrong with it. */
  checks: v.record(v.string(), v.string()),
  /** Events the read models have still to apply (counted up to 1,001), and how long ago the oldest was recorded. */
  lag: v.number(),
  lagSeconds: v.number(),
});
