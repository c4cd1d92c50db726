/**
 * MongoDB's semantics for the subset, in memory: type brackets and equality, and
 * applying updates. The PostgreSQL
 * adapter applies updates with these functions and both adapters build upserts
 * with them. Reference: MongoDB's BSONElementIterator (query paths), the
 * "Comparison/Sort Order" page and the update operator pages.
 */
import { randomUUID } from 'node:crypto';
import { UnsupportedQueryError } from './port';
import { isPlainObject, pathKey, upsertSeed, type Path, type Predicate, type UpdateOperation } from './subset';

/** MongoDB's canonical type order: null < numbers < strings < objects < arrays < booleans < dates. */
function typeRank(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  if (Array.isArray(value)) return 5;
  if (typeof value === 'boolean') return 8;
  if (value instanceof Date) return 9;
  return 4;
}

/** Strings compare by code point (UTF-8 bytes in MongoDB), not by UTF-16 unit as `<` does. */
function compareStrings(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const surrogateX = x >= 0xd800 && x <= 0xdfff;
    const surrogateY = y >= 0xd800 && y <= 0xdfff;
    if (surrogateX !== surrogateY) return surrogateX ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * Order within one type bracket, for scalars and Dates: range operands are never
 * arrays or documents, and sorting by those is refused.
 */
function compareScalars(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return 0;
}

function definedEntries(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).filter(([, field]) => field !== undefined);
}

/**
 * Deep equality. Embedded documents compare without regard to field order: the
 * subset never compares documents whose field order could matter, and a document
 * read back from JSONB has lost its order anyway.
 */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (typeRank(a) !== typeRank(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => valuesEqual(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const x = definedEntries(a);
    const y = definedEntries(b);
    return x.length === y.length && x.every(([key, value]) => key in b && valuesEqual(value, b[key]));
  }
  return compareScalars(a, b) === 0;
}

/** The errors MongoDB raises when an update does not fit the document. */
export class UpdateNotApplicableError extends Error {
  override readonly name = 'UpdateNotApplicableError';
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (isPlainObject(value)) return 'object';
  return typeof value;
}

/**
 * The object holding the last segment of `path`, creating missing documents on
 * the way when `create` is set. Returns null when the path cannot exist, which
 * $unset treats as "nothing to do" and $set as an error.
 */
function parentOf(document: Record<string, unknown>, path: Path, create: boolean, operator: string): Record<string, unknown> | null {
  let current = document;
  for (const key of path.slice(0, -1)) {
    const next = current[key];
    if (next === undefined) {
      if (!create) return null;
      current[key] = {};
      current = current[key] as Record<string, unknown>;
    } else if (isPlainObject(next)) {
      current = next;
    } else if (create) {
      throw new UpdateNotApplicableError(
        `${operator} '${pathKey(path)}': cannot create field '${key}' inside a value of type ${typeName(next)}`,
      );
    } else {
      return null;
    }
  }
  return current;
}

function lastKey(path: Path): string {
  return path[path.length - 1] ?? '';
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function applyOperation(document: Record<string, unknown>, operation: UpdateOperation): void {
  const key = lastKey(operation.path);
  const where = pathKey(operation.path);
  switch (operation.op) {
    case 'set': {
      const parent = parentOf(document, operation.path, true, '$set');
      if (parent) parent[key] = clone(operation.value);
      return;
    }
    case 'unset': {
      const parent = parentOf(document, operation.path, false, '$unset');
      if (parent) delete parent[key];
      return;
    }
  }
}

/** Applies the operations to a copy of the document. */
export function applyUpdate<T extends Record<string, unknown>>(document: T, operations: UpdateOperation[]): T {
  const updated = clone(document);
  for (const operation of operations) applyOperation(updated, operation);
  return updated;
}

/**
 * The document an upsert inserts: the filter's equality fields, then the update.
 * MongoDB would invent an ObjectId when the filter has no _id; ids are strings
 * here, so a UUID is chosen instead (the MongoDB adapter passes it in $setOnInsert).
 */
export function buildUpsert(predicate: Predicate, operations: UpdateOperation[]): Record<string, unknown> & { _id: string } {
  const document: Record<string, unknown> = {};
  for (const [path, value] of upsertSeed(predicate)) applyOperation(document, { op: 'set', path, value });
  for (const operation of operations) applyOperation(document, operation);
  if (document._id === undefined) document._id = randomUUID();
  return { _id: document._id as string, ...document };
}

/**
 * The value a sort (or an index) reads at `path`: a scalar, a Date, or undefined
 * when missing. Arrays and embedded documents are refused: MongoDB sorts them by
 * their smallest/largest element and by field order, which the PostgreSQL
 * adapter does not reproduce, so both adapters reject them.
 */
export function sortValue(document: unknown, path: Path): unknown {
  let current = document;
  for (const [i, key] of path.entries()) {
    if (Array.isArray(current)) throw unsortable(path);
    if (!isPlainObject(current)) return undefined;
    current = current[key];
    if (current === undefined) return undefined;
    if (i === path.length - 1 && (Array.isArray(current) || isPlainObject(current))) throw unsortable(path);
  }
  return current;
}

export function unsortable(path: Path): UnsupportedQueryError {
  return new UnsupportedQueryError(
    `'${pathKey(path)}' holds an array or embedded document in a matching document; sorting or indexing by such values is not supported`,
  );
}
