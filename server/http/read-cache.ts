/**
 * Answers of read-model queries, kept while the read models stay where they were when the answer was read: the first
 * read after any new event is applied reads again. In a process that runs the projections that is at once; elsewhere
 * the position is read from the checkpoint at most every FRESH_MS, so another process's write shows within that
 * (and this process's own writes at once: a command answers only once this process has seen its position).
 *
 * What is kept are documents as stored, shared by every reader: callers derive each reader's view from them and
 * never change them.
 */
import type { ProjectionProgress } from '../../platform/projections/progress';

const FRESH_MS = 100;
const MAX_ENTRIES = 500;

export type ReadCache = <T>(key: string, load: () => Promise<T>) => Promise<T>;

/** No caching: every read goes to the store. */
export const uncached: ReadCache = (_key, load) => load();

export function createReadCache(
  progress: Pick<ProjectionProgress, 'fresh'>,
  { freshMs = FRESH_MS, maxEntries = MAX_ENTRIES } = {},
): ReadCache {
  let at = -1;
  const entries = new Map<string, Promise<unknown>>();
  return async function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const position = await progress.fresh(freshMs);
    if (position !== at) {
      entries.clear();
      at = position;
    }
    const kept = entries.get(key) as Promise<T> | undefined;
    if (kept) {
      // The least recently read goes first when full: a page every reader shares outlives one reader's own answers.
      entries.delete(key);
      entries.set(key, kept);
      return kept;
    }
    // Readers that miss at once share one read; a failed read is not kept.
    const reading = load();
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(key, reading);
    reading.catch(() => {
      if (entries.get(key) === reading) entries.delete(key);
    });
    return reading;
  };
}
