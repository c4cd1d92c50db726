/**
 * Paging of every list (docs/architecture.md#http-conventions): `limit` (at most 100) and an opaque
 * `cursor`, answered as `{ items, nextCursor }`. The paging itself is keyset paging over the read models
 * (platform/paging.ts), which the projections' own queries use too.
 */
import * as v from 'valibot';
import { text } from '../../shared/text-schema';
import type { Sort } from '../../platform/document-store/port';

export const PAGE_LIMIT_MAX = 100;
/** The order of the moderation queues: oldest first, as staff work through them. */
export const OLDEST_FIRST: Sort = { createdAt: 1, _id: 1 };
/** Far more than the sort keys of any list here take; anything longer was not made by this server. */
const CURSOR_MAX_LENGTH = 2000;

/** The paging fields of a list's query schema, with the endpoint's own default `limit`. */
export function pageQuery(defaultLimit: number) {
  return {
    limit: v.optional(
      v.pipe(
        text(),
        v.toNumber('limit must be a number'),
        v.integer('limit must be a whole number'),
        v.minValue(1, 'limit must be at least 1'),
        v.maxValue(PAGE_LIMIT_MAX, `limit must be at most ${PAGE_LIMIT_MAX}`),
      ),
      String(defaultLimit),
    ),
    cursor: v.optional(v.pipe(text(), v.maxLength(CURSOR_MAX_LENGTH, 'Invalid cursor'))),
  };
}

export { findPage, mapPage, pageOfSorted } from '../../platform/paging';
