/**
 * The server's lists come a page at a time (`{ items, nextCursor }`, docs/architecture.md#http-conventions). A list on screen grows by "Load more"; a view that must hold all
 * of a bounded list at once (a calendar month) follows the cursor to the end.
 * Their keys are their addresses' (client/lib/query-keys.ts), so socket notices find them by prefix.
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { Button } from '../components/ui/button';
import { answer, api } from './api';
import { operationKey, type GetAnswer, type GetInit, type GetPath, type KeyParams } from './query-keys';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The operations whose answer is a page (`{ items, nextCursor }`) and the item type of each. */
export type PagedPath = { [P in GetPath]: GetAnswer<P> extends Page<unknown> ? P : never }[GetPath];
export type PageItem<P extends PagedPath> = GetAnswer<P> extends Page<infer T> ? T : never;

/** One page of the operation at `path`: its params with the cursor added to the query. */
function getPage<P extends PagedPath>(path: P, init: GetInit<P>, cursor: string | null): Promise<Page<PageItem<P>>> {
  const params = (init as { params?: KeyParams } | undefined)?.params ?? {};
  const query = cursor ? { ...params.query, cursor } : params.query;
  // TypeScript cannot follow openapi-fetch's signature through a generic path: this is that signature, at P.
  const get = api.GET as unknown as (path: P, init: unknown) => Promise<{ data: Page<PageItem<P>> }>;
  return answer(get(path, { ...init, params: { ...params, query } }));
}

/** Every item of the paged operation at `path`, page after page. */
export async function fetchEveryPage<P extends PagedPath>(path: P, init: GetInit<P>): Promise<PageItem<P>[]> {
  const items: PageItem<P>[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<PageItem<P>> = await getPage(path, init, cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/**
 * The paged operation at `path`, read page by page, keyed by its operation. `items` holds every page loaded so far;
 * with `keepPrevious`, changed params (a new search or sort) keep showing the old items until their first page arrives.
 */
export function usePages<P extends PagedPath>(path: P, init: GetInit<P>, options: { enabled?: boolean; keepPrevious?: boolean } = {}) {
  const list = useInfiniteQuery({
    queryKey: [...operationKey(path, (init as { params?: KeyParams } | undefined)?.params), 'pages'],
    queryFn: ({ pageParam }) => getPage(path, init, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: options.enabled ?? true,
    ...(options.keepPrevious ? { placeholderData: keepPreviousData } : {}),
  });
  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  return { list, items };
}

/**
 * Keeps a newest-first list reaching as far back as it did. Refetched after a change, a list refetches as many pages
 * as it held; when new items arrive at the top, the oldest ones slide onto a page not loaded and would vanish from the
 * bottom under the reader. So while the list ends earlier in its order than it ended before (`comesBefore` is that
 * order), the next page is loaded again. A deleted last item ends it no earlier, so this stops.
 */
export function useKeepReach<T>(
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> },
  items: readonly T[],
  comesBefore: (a: T, b: T) => boolean,
  resetWhen: unknown,
) {
  const reach = useRef<T | undefined>(undefined);
  useEffect(() => {
    reach.current = undefined;
  }, [resetWhen]);
  useEffect(() => {
    const last = items.at(-1);
    const before = reach.current;
    if (before !== undefined && last !== undefined && comesBefore(last, before)) {
      if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
      if (list.hasNextPage) return;
    }
    reach.current = last;
  }, [items, list, comesBefore]);
}

/** The button under a paged list, there while more pages remain. */
export function LoadMore({
  list,
  label = 'Load more',
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  label?: string;
}) {
  if (!list.hasNextPage) return null;
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="secondary" onPress={() => void list.fetchNextPage()} isDisabled={list.isFetchingNextPage}>
        {list.isFetchingNextPage ? 'Loading...' : label}
      </Button>
    </div>
  );
}
