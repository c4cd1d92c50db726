import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS, alertsFor, createResponseTimes } from '../../server/monitoring/metrics';

const calm = {
  responseP95Ms: 20,
  lag: 0,
  poolInUse: 1,
  poolMax: 10,
  failedJobs: 0,
  storageBytes: 10,
  storageQuotaBytes: 100,
  projectionsStopped: false,
  oldestQueuedMailSeconds: 0,
};

describe('monitoring alerts', () => {
  it('raises none when every figure is under its threshold', () => {
    expect(alertsFor(calm, DEFAULT_THRESHOLDS)).toEqual([]);
  });
  it('raises one per figure over its threshold, critical when projections stopped', () => {
    const alerts = alertsFor(
      { ...calm, responseP95Ms: 900, lag: 500, poolInUse: 9, failedJobs: 2, storageBytes: 80, projectionsStopped: true },
      DEFAULT_THRESHOLDS,
    );
    expect(alerts.map((a) => a.level)).toEqual(['critical', 'warning', 'warning', 'warning', 'warning', 'warning']);
    expect(alerts.at(-1)!.message).toBe('Storage at 80% of its quota');
  });
  it('raises a mail alert once the oldest queued mail is older than the threshold', () => {
    expect(alertsFor({ ...calm, oldestQueuedMailSeconds: DEFAULT_THRESHOLDS.mailBacklogSeconds }, DEFAULT_THRESHOLDS)).toEqual([]);
    expect(alertsFor({ ...calm, projectionsResubscribing: '14 UNAVAILABLE: leader changed' }, DEFAULT_THRESHOLDS)).toEqual([
      { level: 'warning', message: 'Projections lost their subscription (14 UNAVAILABLE: leader changed) and are subscribing again' },
    ]);
    expect(alertsFor({ ...calm, oldestQueuedMailSeconds: 601 }, DEFAULT_THRESHOLDS)).toEqual([
      { level: 'warning', message: 'Mail backlog: the oldest queued mail has waited 601 s' },
    ]);
    expect(alertsFor({ ...calm, oldestQueuedMailSeconds: 31 }, { ...DEFAULT_THRESHOLDS, mailBacklogSeconds: 30 })).toHaveLength(1);
  });
  it('has no storage alert without a quota', () => {
    expect(alertsFor({ ...calm, storageBytes: 1e12, storageQuotaBytes: null }, DEFAULT_THRESHOLDS)).toEqual([]);
  });
});

describe('response times', () => {
  it('reports percentiles over the rolling window only', () => {
    let now = 0;
    const times = createResponseTimes(() => now);
    for (let i = 1; i <= 100; i++) times.record(i);
    expect(times.summary()).toEqual({ p50: 51, p95: 96, count: 100 });
    now = 10 * 60_000;
    times.record(7);
    expect(times.summary()).toEqual({ p50: 7, p95: 7, count: 1 });
  });
});
