/**
 * The checkpointed projection runner: one subscription to all events, each event
 * applied to every projection that handles it, one at a time, then the checkpoint
 * stored. A projection that throws stops the runner with a clear log line; the
 * event is not skipped, and a restart resumes from the checkpoint.
 *
 * A subscription that fails or ends (a KurrentDB restart or leader change, a lost
 * PostgreSQL connection) is not the end: the runner subscribes again from the last
 * event it applied, waiting longer after each failure in a row, and says so in
 * `subscription()` (readiness and monitoring show it) until events flow again.
 *
 * The checkpoint records which event store it counts in (EventStore.identity):
 * started against another store, the runner refuses, since its positions would
 * mean nothing there, and asks for a rebuild.
 */
import type { DocumentStore } from '../document-store/port';
import type { EventStore, RecordedEvent } from '../event-store/port';
import type { Logger } from '../logger';
import type { ChangeNotice } from '../../shared/socket-messages';
import { DuplicateKeyError } from '../document-store/port';
import { CHECKPOINTS, type Checkpoint, type ProjectionProgress } from './progress';

/** Waits before subscribing again: 250 ms after the first failure in a row, doubling up to 10 s. */
export const resubscribeDelayMs = (failuresInARow: number) => Math.min(250 * 2 ** (failuresInARow - 1), 10_000);

/** A subscription that has run this long since it was made again counts as recovered, events or not. */
const RECOVERED_AFTER_MS = 3_000;

export interface SubscriptionState {
  status: 'running' | 'resubscribing';
  /** Failures in a row, and the last one's message, while resubscribing. */
  failures: number;
  reason: string | null;
  since: Date | null;
}

// The API's dependencies name the publisher's notice from here.
export type { ChangeNotice };

export interface ProjectionContext {
  /**
   * The projection's own collections. Within a page of events, documents read and written by `_id` (findOne({ _id }),
   * applyToDocument) are kept in memory and written once at the end of the page; any other query first writes what
   * the page changed in that collection, so it costs a round trip: keep them off the hot paths.
   */
  store: DocumentStore;
  /** Queue a change notice; sent once the page is committed, and only for live events. */
  notify(notice: ChangeNotice): void;
  /** False while replaying history (nobody listens): skip work that only serves change notices. */
  live: boolean;
}

export interface Projection {
  name: string;
  /**
   * The version of what its documents hold: raise it when a code change makes them differ from what the log would
   * give now. The runner then builds the new version beside the live one and switches to it once caught up.
   */
  version: number;
  /** Collections this projection owns; dropped on rebuild. */
  collections: readonly string[];
  /** Declares indexes; runs at start, must be idempotent. */
  setup?(store: DocumentStore): Promise<void>;
  apply(event: RecordedEvent, context: ProjectionContext): Promise<void>;
}

export interface ProjectionRunnerOptions {
  name?: string;
  eventStore: EventStore;
  store: DocumentStore;
  projections: readonly Projection[];
  progress: ProjectionProgress;
  publish?: (notice: ChangeNotice) => void;
  logger: Logger;
  /** Overrides resubscribeDelayMs (tests). */
  resubscribeDelay?: (failuresInARow: number) => number;
}

export type ProjectionRunner = ReturnType<typeof createProjectionRunner>;

export function createProjectionRunner(options: ProjectionRunnerOptions) {
  const name = options.name ?? 'read-models';
  const { eventStore, store, projections, progress, logger } = options;
  const checkpoints = store.collection<Checkpoint>(CHECKPOINTS);
  let controller: AbortController | null = null;
  let loop: Promise<void> | null = null;
  let failure: { position: number; projection: string; error: string } | null = null;
  const healthy = (): SubscriptionState => ({ status: 'running', failures: 0, reason: null, since: null });
  let subscription = healthy();
  let applied = 0;
  const delay = options.resubscribeDelay ?? resubscribeDelayMs;

  /**
   * Stores the checkpoint unless another runner has already stored a later one (two runners overlap while a lock
   * is taken over): a conditional write, where a duplicate key means "already past".
   */
  async function storeCheckpoint(position: number, eventStoreIdentity: string) {
    try {
      await checkpoints.replaceOne({ _id: name, position: { $lt: position } }, { _id: name, position, eventStore: eventStoreIdentity }, { upsert: true });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }

  function pause(ms: number, signal: AbortSignal) {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
    });
  }

  async function run(signal: AbortSignal) {
    const identity = await eventStore.identity();
    const checkpoint = await checkpoints.findOne({ _id: name });
    if (checkpoint?.eventStore !== undefined && checkpoint.eventStore !== identity) {
      failure = { position: checkpoint.position, projection: '(checkpoint)', error: `the checkpoint counts in another event store (${String(checkpoint.eventStore)}), not ${identity}` };
      logger.error(
        { runner: name, checkpointEventStore: checkpoint.eventStore, eventStore: identity },
        `The ${name} checkpoint was written against another event store (${String(checkpoint.eventStore)}); this one is ${identity}. Its position means nothing here, so the runner did not start. Rebuild the read models (npm run projections:rebuild) or point EVENT_STORE back at that store.`,
      );
      return;
    }
    const liveFrom = await eventStore.headPosition();
    let position = checkpoint?.position ?? 0;
    progress.reached(position);
    while (!signal.aborted) {
      let reason: string;
      let recovered: NodeJS.Timeout | undefined;
      if (subscription.status === 'resubscribing') {
        const state = subscription;
        recovered = setTimeout(() => {
          if (subscription === state) subscription = healthy();
        }, RECOVERED_AFTER_MS);
      }
      try {
        for await (const event of eventStore.subscribeToAll({ after: position, signal })) {
          if (subscription.status === 'resubscribing') subscription = healthy();
          const notices: ChangeNotice[] = [];
          const context: ProjectionContext = { store, notify: (notice) => notices.push(notice), live: event.position > liveFrom };
          for (const projection of projections) {
            try {
              await projection.apply(event, context);
            } catch (error) {
              failure = { position: event.position, projection: projection.name, error: String(error) };
              logger.error(
                { projection: projection.name, position: event.position, eventType: event.type, stream: event.streamName, err: error },
                `Projection ${projection.name} failed on event ${event.type} at position ${event.position}; the runner stopped and will resume from position ${position} after a restart`,
              );
              return;
            }
          }
          position = event.position;
          applied++;
          await storeCheckpoint(position, identity);
          progress.reached(position);
          if (event.position > liveFrom) for (const notice of notices) options.publish?.(notice);
        }
        if (signal.aborted) return;
        reason = 'the subscription ended';
      } catch (error) {
        if (signal.aborted) return;
        reason = error instanceof Error ? error.message : String(error);
      } finally {
        clearTimeout(recovered);
      }
      const failures = subscription.failures + 1;
      subscription = { status: 'resubscribing', failures, reason, since: subscription.since ?? new Date() };
      const waitMs = delay(failures);
      logger.error({ runner: name, position, failures, waitMs, reason }, `The ${name} subscription dropped (${reason}); subscribing again from position ${position} in ${waitMs} ms`);
      await pause(waitMs, signal);
    }
  }

  return {
    name,
    async start() {
      for (const projection of projections) await projection.setup?.(store);
      failure = null;
      subscription = healthy();
      controller = new AbortController();
      loop = run(controller.signal).catch((error: unknown) => {
        if (controller?.signal.aborted) return;
        failure = { position: progress.current(), projection: '(subscription)', error: String(error) };
        logger.error({ err: error }, 'Projection subscription failed; the runner stopped');
      });
    },
    async stop() {
      controller?.abort();
      await loop;
      loop = null;
    },
    /** Drops every read model and the checkpoint, so the next start replays the whole log. */
    async reset() {
      for (const projection of projections) for (const collection of projection.collections) await store.collection(collection).drop();
      await checkpoints.deleteOne({ _id: name });
    },
    failure: () => failure,
    subscription: () => subscription,
    /** Events applied since this process started the runner. */
    applied: () => applied,
  };
}
