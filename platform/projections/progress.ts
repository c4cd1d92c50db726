/**
 * How far the read models have got, for read-your-writes. A projection runner in
 * this process reports each position as it passes it; an API process without a
 * runner (ROLES=api) reads the stored checkpoint instead.
 */
import type { DocumentStore } from '../document-store/port';
import type { EventStore } from '../event-store/port';

/**
 * Checkpoints: one document per projection (its _id the projection's name, or with `__rebuild` for a rebuild under
 * way), and one per runner (its _id the runner's name): where all its live projections have got to, and its heartbeat.
 */
export const CHECKPOINTS = 'projection_checkpoints';
/** Suffix of the collections a rebuild writes beside the live ones, and of its checkpoint. */
export const REBUILD_SUFFIX = '__rebuild';
/** Rebuilds asked for: one document per projection, removed once the rebuilt one serves. */
export const REBUILDS = 'projection_rebuilds';

export interface Checkpoint {
  _id: string;
  position: number;
  [key: string]: unknown;
}

export interface ProjectionCheckpoint extends Checkpoint {
  runner: string;
  version: number;
  eventStore: string;
  /** Where and why it stopped on an event; null while it runs. */
  failed: { position: number; projection: string; error: string } | null;
  updatedAt: string;
  rebuiltAt?: string;
}

export interface RunnerSummary extends Checkpoint {
  /** Marks a runner's summary (a runner's single checkpoint of old has none). */
  summary: true;
  eventStore: string;
  heartbeatAt: string;
  projections: string[];
}

export interface RebuildRequest {
  _id: string;
  runner: string;
  requestedAt: string;
  failed: { position: number; projection: string; error: string } | null;
  [key: string]: unknown;
}

export interface ProjectionProgress {
  /** Resolves once every projection has passed `position`, or after the timeout. Never rejects. */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
  /** Called by the runner after each event. */
  reached(position: number): void;
  current(): number;
  /**
   * The position, no older than `maxAgeMs`: at once where this process runs the runner, else read again from the
   * stored checkpoint when the last reading is older (one reading at a time).
   */
  fresh(maxAgeMs: number): Promise<number>;
}

/**
 * `local`: whether a runner in this process reports each position (no need to read the checkpoint); a function when
 * that changes, as with a runner that only runs while its process holds the lock (platform/projections/leadership.ts).
 */
export function createProjectionProgress(options: {
  store: DocumentStore;
  runnerName: string;
  pollMs?: number;
  local: boolean | (() => boolean);
}): ProjectionProgress {
  const local = typeof options.local === 'function' ? options.local : () => options.local as boolean;
  let position = 0;
  let waiters: { position: number; resolve: (ok: boolean) => void }[] = [];

  function release() {
    const ready = waiters.filter((waiter) => waiter.position <= position);
    waiters = waiters.filter((waiter) => waiter.position > position);
    for (const waiter of ready) waiter.resolve(true);
  }

  let polledAt = 0;
  let polling: Promise<void> | null = null;
  /** One reading of the checkpoint every pollMs while anyone waits, however many wait. */
  let poller: NodeJS.Timeout | null = null;
  function startPolling() {
    poller ??= setInterval(() => {
      polling ??= poll()
        .catch(() => undefined)
        .finally(() => {
          polling = null;
        });
    }, options.pollMs ?? 20);
  }
  function stopPolling() {
    if (poller) clearInterval(poller);
    poller = null;
  }

  async function poll() {
    polledAt = Date.now();
    const checkpoint = await options.store.collection<Checkpoint>(CHECKPOINTS).findOne({ _id: options.runnerName });
    if (checkpoint && checkpoint.position > position) {
      position = checkpoint.position;
      release();
    }
  }

  return {
    current: () => position,
    async fresh(maxAgeMs) {
      if (local() || Date.now() - polledAt < maxAgeMs) return position;
      polling ??= poll().finally(() => {
        polling = null;
      });
      await polling;
      return position;
    },
    reached(next) {
      if (next > position) position = next;
      release();
    },
    waitFor(target, timeoutMs) {
      if (target <= position) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
          if (waiters.length === 0) stopPolling();
        };
        waiters.push({ position: target, resolve: done });
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w.resolve !== done);
          done(false);
        }, timeoutMs);
        if (!local()) startPolling();
      });
    },
  };
}

export interface Lag {
  /** Events the runner has still to apply, counted up to the cap asked for. */
  events: number;
  /** How long ago the oldest of them was recorded (0 when none waits). */
  seconds: number;
}

/**
 * How far a runner is behind the log, the same way on every event store (positions are opaque: KurrentDB's are
 * byte offsets): from its stored checkpoint, so any process can tell, whichever runs it.
 */
export async function runnerLag(options: {
  eventStore: EventStore;
  store: DocumentStore;
  runnerName: string;
  cap: number;
  now?: Date;
}): Promise<Lag> {
  const checkpoint = await options.store.collection<Checkpoint>(CHECKPOINTS).findOne({ _id: options.runnerName });
  const backlog = await options.eventStore.backlog(checkpoint?.position ?? 0, options.cap);
  const now = options.now ?? new Date();
  return { events: backlog.events, seconds: backlog.oldestAt ? Math.max(0, (now.getTime() - backlog.oldestAt.getTime()) / 1000) : 0 };
}
