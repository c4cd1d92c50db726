/** One page of a list, as every list call answers it (docs/architecture.md#http-conventions). */
import * as v from 'valibot';

export function pageSchema<const Item extends v.GenericSchema>(item: Item) {
  return v.object({
    items: v.array(item),
    /** Pass as `cursor` for the next page; null on the last one. */
    nextCursor: v.nullable(v.string()),
  });
}
