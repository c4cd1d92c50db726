/**
 * The checkpointed projection runner: one subscription to all events, each event
 * applied to every projection that handles it, one at a time, then the checkpoint
 * stored. A projection that throws stops the runner with a clear log line; the
 * event is not skipped, and a restart resumes from the checkpoint.
 */
import type { DocumentStore } from '../document-store/port';
import type { EventStore, RecordedEvent } from '../event-store/port';
import type { Logger } from '../logger';
import type { ChangeNotice } from '../../shared/socket-messages';
import { CHECKPOINTS, type Checkpoint, type ProjectionProgress } from './progress';

// The API's dependencies name the publisher's notice from here.
export type { ChangeNotice };

export interface ProjectionContext {
  store: DocumentStore;
  /** Queue a change notice; sent once the event is fully applied, and only for live events. */
  notify(notice: ChangeNotice): void;
}

export interface Projection {
  name: string;
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
}

export type ProjectionRunner = ReturnType<typeof createProjectionRunner>;

export function createProjectionRunner(options: ProjectionRunnerOptions) {
  const name = options.name ?? 'read-models';
  const { eventStore, store, projections, progress, logger } = options;
  const checkpoints = store.collection<Checkpoint>(CHECKPOINTS);
  let controller: AbortController | null = null;
  let loop: Promise<void> | null = null;
  let failure: { position: number; projection: string; error: string } | null = null;

  async function run(signal: AbortSignal) {
    const checkpoint = await checkpoints.findOne({ _id: name });
    const liveFrom = await eventStore.headPosition();
    let position = checkpoint?.position ?? 0;
    progress.reached(position);
    for await (const event of eventStore.subscribeToAll({ after: position, signal })) {
      const notices: ChangeNotice[] = [];
      const context: ProjectionContext = { store, notify: (notice) => notices.push(notice) };
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
      await checkpoints.replaceOne({ _id: name }, { _id: name, position }, { upsert: true });
      progress.reached(position);
      if (event.position > liveFrom) for (const notice of notices) options.publish?.(notice);
    }
  }

  return {
    name,
    async start() {
      for (const projection of projections) await projection.setup?.(store);
      failure = null;
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
  };
}
