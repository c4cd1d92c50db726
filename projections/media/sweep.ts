/**
 * Removes uploads that nothing refers to once their grace period is over (docs/domain/media.md#cleanup): files
 * first, then `MediaDeleted` in the upload's stream. Safe to run in any number of processes at once and to repeat:
 * deleting a file that is gone is no error, and the decider records the deletion once. A sweep stopped between the
 * two steps leaves an upload without files that the next sweep finishes.
 */
import type { DocumentStore } from '../../platform/document-store/port';
import type { CommandHandler } from '../../platform/command-handler';
import type { MediaStorage } from '../../platform/media-storage/port';
import type { Logger } from '../../platform/logger';
import { mediaDecider } from '../../shared/media/media-stream';
import { streamName } from '../../shared/streams';
import { mediaCollection } from './media';

export interface SweepDependencies {
  store: DocumentStore;
  storage: MediaStorage;
  handle: CommandHandler;
  now(): Date;
  /** How long an upload may wait for a post, event, blog post or avatar to use it. */
  graceMs: number;
}

const BATCH = 100;

/** One sweep; answers the number of uploads it removed. */
export async function sweepOrphanMedia({ store, storage, handle, now, graceMs }: SweepDependencies): Promise<number> {
  const before = new Date(now().getTime() - graceMs).toISOString();
  let removed = 0;
  for (;;) {
    const orphans = await mediaCollection(store).find(
      { referenceCount: 0, $or: [{ uploadedAt: { $lt: before } }, { ownerErased: true }] },
      { sort: { referenceCount: 1, uploadedAt: 1 }, limit: BATCH },
    );
    let removedNow = 0;
    for (const orphan of orphans) {
      for (const file of orphan.files) await storage.delete(file.key);
      const { events } = await handle(mediaDecider, streamName('media', orphan._id), {
        type: 'DeleteOrphan',
        data: {},
        metadata: { now: now(), actor: null },
      });
      removedNow += events.length;
    }
    removed += removedNow;
    // Another process removing the same batch leaves its documents for a moment: the next sweep sees them gone.
    if (orphans.length < BATCH || removedNow === 0) return removed;
  }
}

/** Sweeps now and then every `everyMs`, until stopped. */
export function startMediaSweep(dependencies: SweepDependencies, logger: Logger, everyMs = 15 * 60 * 1000) {
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = sweepOrphanMedia(dependencies)
      .then((removed) => removed > 0 && logger.info({ removed }, 'orphaned uploads removed'))
      .catch((error: unknown) => logger.error({ err: error }, 'media sweep failed'));
  };
  sweep();
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
