/**
 * How far the read models have got, for read-your-writes. A projection runner in
 * this process reports each position as it passes it; an API process without a
 * runner (ROLES=api) reads the stored checkpoint instead.
 */
import type { DocumentStore } from '../document-store/port';

/** Where each runner has got to: one document per runner, written by the runner after each event. */
export const CHECKPOINTS = 'projection_checkpoints';

export interface Checkpoint {
  _id: string;
  position: number;
  [key: string]: unknown;
}

export interface ProjectionProgress {
  /** Resolves once every projection has passed `position`, or after the timeout. Never rejects. */
  waitFor(position: number, timeoutMs: number): Promise<boolean>;
  /** Called by the runner after each event. */
  reached(position: number): void;
  current(): number;
}

export function createProjectionProgress(options: { store: DocumentStore; runnerName: string; pollMs?: number; local: boolean }): ProjectionProgress {
  let position = 0;
  let waiters: { position: number; resolve: (ok: boolean) => void }[] = [];

  function release() {
    const still: typeof waiters = [];
    for (const waiter of waiters) (waiter.position <= position ? waiter.resolve(true) : still.push(waiter));
    waiters = still;
  }

  async function poll() {
    const checkpoint = await options.store.collection<Checkpoint>(CHECKPOINTS).findOne({ _id: options.runnerName });
    if (checkpoint && checkpoint.position > position) {
      position = checkpoint.position;
      release();
    }
  }

  return {
    current: () => position,
    reached(next) {
      if (next > position) position = next;
      release();
    },
    waitFor(target, timeoutMs) {
      if (target <= position) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        let poller: NodeJS.Timeout | undefined;
        const done = (ok: boolean) => {
          clearTimeout(timer);
          clearInterval(poller);
          resolve(ok);
        };
        waiters.push({ position: target, resolve: done });
        timer = setTimeout(() => {
          waiters = waiters.filter((w) => w.resolve !== done);
          done(false);
        }, timeoutMs);
        if (!options.local) poller = setInterval(() => void poll().catch(() => undefined), options.pollMs ?? 20);
      });
    },
  };
}
