/**
 * Query keys, from one factory: the key of a read is its API address as segments (the path after /api,
 * then the query as an object), so a change notice names a prefix (`apiKey('/api/events')`) and TanStack
 * Query's own prefix match finds every read below it: the list, one event, its counts.
 */
import { queryOptions, type QueryKey } from '@tanstack/react-query';
import { apiRequest } from './api';

export function apiKey(address: string): QueryKey {
  const [path = '', search] = address.split('?');
  const segments = path.replace(/^\/api\//, '').split('/').filter(Boolean);
  const query = Object.fromEntries(new URLSearchParams(search));
  return Object.keys(query).length > 0 ? [...segments, query] : segments;
}

/** A GET of `address`, cached under its key. */
export const getQuery = <T>(address: string) => queryOptions({ queryKey: apiKey(address), queryFn: () => apiRequest<T>('GET', address) });
