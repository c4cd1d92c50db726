/**
 * Every projection's state, from what the runners store (their checkpoints, summaries and rebuild requests), so any
 * process can tell, whichever runs them: `npm run projections:status`, /readyz and monitoring.
 */
import type { DocumentStore } from '../document-store/port';
import type { EventStore } from '../event-store/port';
import { CHECKPOINTS, REBUILD_SUFFIX, REBUILDS, type ProjectionCheckpoint, type RebuildRequest, type RunnerSummary } from './progress';

export type ProjectionState = 'running' | 'catching-up' | 'rebuilding' | 'failed' | 'stopped';

export interface ProjectionStatus {
  name: string;
  runner: string;
  /** The last event applied (0: none yet). */
  position: number;
  /** Events still to apply, counted up to LAG_CAP. */
  lag: number;
  state: ProjectionState;
  version: number | null;
  /** Why it stopped, when it failed. */
  error: string | null;
  /** How far a rebuild under way has got. */
  rebuild: { position: number; lag: number } | null;
}

/** A runner whose heartbeat is older than this has stopped (it writes one every second). */
export const HEARTBEAT_STALE_MS = 15_000;
/** Events behind the log at which a projection counts as catching up rather than running. */
export const CATCHING_UP_AT = 100;
const LAG_CAP = 1_000_000;

/** `runners`: each runner's name and the projections it runs, so that one that never ran is listed too. */
export async function projectionStatuses(options: {
  store: DocumentStore;
  eventStore: EventStore;
  runners: { name: string; projections: readonly string[] }[];
  now?: Date;
}): Promise<ProjectionStatus[]> {
  const now = (options.now ?? new Date()).getTime();
  const documents = await options.store.collection<ProjectionCheckpoint | RunnerSummary>(CHECKPOINTS).find({});
  const byId = new Map(documents.map((document) => [document._id, document]));
  const requests = new Map((await options.store.collection<RebuildRequest>(REBUILDS).find({})).map((request) => [request._id, request]));
  const lag = async (position: number) => (await options.eventStore.backlog(position, LAG_CAP)).events;
  const statuses: ProjectionStatus[] = [];
  for (const runner of options.runners) {
    const summary = byId.get(runner.name) as RunnerSummary | undefined;
    const alive = summary?.summary === true && now - Date.parse(summary.heartbeatAt) < HEARTBEAT_STALE_MS;
    for (const name of runner.projections) {
      const checkpoint = byId.get(name) as ProjectionCheckpoint | undefined;
      const rebuilding = byId.get(`${name}${REBUILD_SUFFIX}`) as ProjectionCheckpoint | undefined;
      const request = requests.get(name);
      const position = checkpoint?.position ?? 0;
      const behind = await lag(position);
      const failed = checkpoint?.failed ?? request?.failed ?? rebuilding?.failed ?? null;
      const state: ProjectionState = failed
        ? 'failed'
        : !alive
          ? 'stopped'
          : rebuilding || request
            ? 'rebuilding'
            : behind >= CATCHING_UP_AT
              ? 'catching-up'
              : 'running';
      statuses.push({
        name,
        runner: runner.name,
        position,
        lag: behind,
        state,
        version: checkpoint?.version ?? null,
        error: failed ? `stopped at ${failed.position}: ${failed.error}` : null,
        rebuild: rebuilding ? { position: rebuilding.position, lag: await lag(rebuilding.position) } : null,
      });
    }
  }
  return statuses;
}

/** The projections that stopped on an event, for readiness and monitoring. */
export async function failedProjections(store: DocumentStore): Promise<{ name: string; position: number; error: string }[]> {
  const stopped = await store.collection<ProjectionCheckpoint>(CHECKPOINTS).find({ failed: { $ne: null }, runner: { $exists: true } });
  return stopped
    .filter((checkpoint) => checkpoint.failed)
    .map((checkpoint) => ({ name: checkpoint._id, position: checkpoint.failed!.position, error: checkpoint.failed!.error }));
}
