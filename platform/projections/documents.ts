/**
 * Idempotent writes for projections: every document carries the global position
 * of the last event applied to it, and an event at or below that position is
 * skipped, so replaying the log (after a crash, or twice) gives the same document.
 */
import type { Collection, Document } from '../document-store/port';

/** A type alias, not an interface, so documents built on it keep an implicit index signature. */
export type Positioned = {
  _position: number;
};

/**
 * Applies `change` to the document with this id (null when it does not exist).
 * `change` returns the new document, or null to delete it.
 */
export async function applyToDocument<T extends Document>(
  collection: Collection<T & Positioned>,
  id: string,
  position: number,
  change: (current: (T & Positioned) | null) => Omit<T, '_id' | '_position'> | null,
): Promise<void> {
  const current = await collection.findOne({ _id: id });
  if (current && current._position >= position) return;
  const next = change(current);
  if (next === null) {
    if (current) await collection.deleteOne({ _id: id });
    return;
  }
  await collection.replaceOne({ _id: id }, { ...next, _id: id, _position: position } as T & Positioned, { upsert: true });
}

