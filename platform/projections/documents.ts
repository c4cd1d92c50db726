/**
 * Idempotent writes for projections: every document carries the global position
 * of the last event applied to it, and an event at or below that position is
 * skipped, so replaying the log (after a crash, or twice) gives the same document.
 */
import { DuplicateKeyError, type Collection, type Document } from '../document-store/port';

/** A type alias, not an interface, so documents built on it keep an implicit index signature. */
export type Positioned = {
  _position: number;
};

/** Attempts at one change while another runner keeps writing the same document (two runners overlap briefly). */
const ATTEMPTS = 5;

/**
 * Applies `change` to the document with this id (null when it does not exist).
 * `change` returns the new document, or null to delete it.
 *
 * The write is conditional on the document being as it was read (its `_position`, or its absence), so two runners
 * applying the log at once (one taking over while the other has not stopped yet) can never write a document back
 * to an older state: when the document changed in between, it is read again, and skipped if it is now past this event.
 */
export async function applyToDocument<T extends Document>(
  collection: Collection<T & Positioned>,
  id: string,
  position: number,
  change: (current: (T & Positioned) | null) => Omit<T, '_id' | '_position'> | null,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const current = await collection.findOne({ _id: id });
    if (current && current._position >= position) return;
    const next = change(current);
    if (next === null && !current) return;
    const asRead = current ? { _id: id, _position: current._position } : null;
    try {
      if (next === null) {
        if ((await collection.deleteOne(asRead!)) === 1) return;
      } else {
        const document = { ...next, _id: id, _position: position } as T & Positioned;
        if (!asRead) {
          await collection.insertOne(document);
          return;
        }
        if ((await collection.replaceOne(asRead, document)).matchedCount === 1) return;
      }
    } catch (error) {
      // Another runner inserted the document first (or a unique index refuses it: rethrown once attempts run out).
      if (!(error instanceof DuplicateKeyError) || attempt >= ATTEMPTS) throw error;
      continue;
    }
    if (attempt >= ATTEMPTS) throw new Error(`${collection.name} ${id}: the document kept changing under the position guard`);
  }
}
