/**
 * Keyset paging over the document store (docs/architecture.md#http-conventions): a cursor holds the sort keys of a
 * page's last item and the next page is what sorts after them, so items added or removed meanwhile never make a
 * reader miss or repeat one, as an offset would. Every paged order ends with `_id`, which makes it total. The read
 * models' queries (projections/<feature>/) page with it; the HTTP side parses `limit` and `cursor`
 * (server/http/pagination.ts).
 */
import { fail } from '../shared/domain';
import { hasNoForbiddenCharacters } from '../shared/text-schema';
import type { Collection, Document, Filter, Sort } from './document-store/port';

export interface Page<T> {
  items: T[];
  /** What to send as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

type SortValue = string | number;

function keysOf(order: Sort): string[] {
  const keys = Object.keys(order);
  if (keys.at(-1) !== '_id') throw new Error(`A paged order must end with _id: ${keys.join(', ')}`);
  return keys;
}

export function encodeCursor(document: Document, order: Sort): string {
  return Buffer.from(JSON.stringify(Object.fromEntries(keysOf(order).map((key) => [key, document[key]])))).toString('base64url');
}

/** A string carrying text no store can hold (see the text schema) was not made by this server: the cursor was forged. */
const isSortValue = (value: unknown): value is SortValue =>
  (typeof value === 'string' && hasNoForbiddenCharacters(value)) || (typeof value === 'number' && Number.isFinite(value));

/** The position a cursor holds; a 400 unless it was made for this very order. */
function decodeCursor(cursor: string, keys: string[]): Record<string, SortValue> {
  let position: unknown = null;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // not ours: refused below
  }
  if (typeof position === 'object' && position !== null && !Array.isArray(position)) {
    const entries = Object.entries(position);
    if (entries.length === keys.length && entries.every(([key, value], i) => key === keys[i] && isSortValue(value)))
      return Object.fromEntries(entries) as Record<string, SortValue>;
  }
  throw fail.invalid('Invalid cursor', { cursor: 'Invalid cursor' });
}

/** What sorts after the cursor's position in `order`: a later first key, or the same one and a later second, and so on. */
export function afterCursor(cursor: string, order: Sort): Filter {
  const keys = keysOf(order);
  const position = decodeCursor(cursor, keys);
  return {
    $or: keys.map((key, i) => ({
      ...Object.fromEntries(keys.slice(0, i).map((earlier) => [earlier, position[earlier]])),
      [key]: { [order[key] === 1 ? '$gt' : '$lt']: position[key] },
    })),
  };
}

/** A page from `limit + 1` items found in `order`: the extra one only tells that another page follows. */
export function pageOf<T extends Document>(found: T[], { limit }: PageRequest, order: Sort): Page<T> {
  const items = found.slice(0, limit);
  return { items, nextCursor: found.length > limit ? encodeCursor(items.at(-1)!, order) : null };
}

/**
 * One page of a list already read whole and sorted in `order` (each item holding the order's keys), as findPage pages
 * a collection: for lists made when read, a member's own links with a series' dates among them.
 */
export function pageOfSorted<T extends Document>(sorted: T[], order: Sort, request: PageRequest): Page<T> {
  const keys = keysOf(order);
  const position = request.cursor ? decodeCursor(request.cursor, keys) : null;
  const after = (item: T) => {
    for (const key of keys) {
      const [value, at] = [item[key] as SortValue, position![key]!];
      if (value !== at) return order[key] === 1 ? value > at : value < at;
    }
    return false;
  };
  return pageOf(position ? sorted.filter(after) : sorted, request, order);
}

/** One page of what matches `filter`, in `order`. */
export async function findPage<T extends Document>(
  collection: Collection<T>,
  filter: Filter,
  order: Sort,
  request: PageRequest,
): Promise<Page<T>> {
  const conditions = [filter, ...(request.cursor ? [afterCursor(request.cursor, order)] : [])].filter(
    (condition) => Object.keys(condition).length > 0,
  );
  const found = await collection.find(conditions.length > 1 ? { $and: conditions } : (conditions[0] ?? {}), {
    sort: order,
    limit: request.limit + 1,
  });
  return pageOf(found, request, order);
}

export const mapPage = <T, U>(page: Page<T>, map: (item: T) => U): Page<U> => ({ items: page.items.map(map), nextCursor: page.nextCursor });
