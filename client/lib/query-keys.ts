/**
 * Query keys, from one factory: the key of a read is its API address as segments (the path after /api,
 * then the query as an object), so a change notice names a prefix (`apiKey('/api/events')`) and TanStack
 * Query's own prefix match finds every read below it: the list, one event, its counts.
 *
 * A read of the typed client (client/lib/api.ts) is keyed by its operation: `operationKey(path, params)` fills
 * the path template with its path params and gives the same segments `apiKey` gives for that address, so the
 * socket's invalidations (client/lib/socket.ts) reach it unchanged.
 */
import { queryOptions, type QueryKey } from '@tanstack/react-query';
import type { MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from './api-schema';
import { answer, api, type SuccessData } from './api';

export function apiKey(address: string): QueryKey {
  const [path = '', search] = address.split('?');
  const segments = path
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean);
  const query = Object.fromEntries(new URLSearchParams(search));
  return Object.keys(query).length > 0 ? [...segments, query] : segments;
}

/** What a key is made of: an operation's path and query params (values as the address would spell them). */
export interface KeyParams {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
}

/** The key of a read of the operation at `path` (a template of the document, `/api/posts/{id}`). */
export function operationKey(path: string, params: KeyParams = {}): QueryKey {
  const address = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params.path?.[name] ?? '')));
  const segments = address
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean);
  const query = Object.fromEntries(
    Object.entries(params.query ?? {})
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([name, value]) => [name, String(value)]),
  );
  return Object.keys(query).length > 0 ? [...segments, query] : segments;
}

/** The paths the document has a GET for. */
export type GetPath = { [P in keyof paths]: paths[P]['get'] extends undefined ? never : P }[keyof paths];
/** A GET's params (path and query), as the document has them. */
export type GetInit<P extends GetPath> = MaybeOptionalInit<paths[P], 'get'>;
/** A GET's query params, as the document has them. */
export type GetQuery<P extends GetPath> = paths[P]['get'] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** A GET's arguments after its path (its init, optional when nothing in it is required). */
type GetRest<P extends GetPath> = Parameters<typeof api.GET<P, GetInit<P>>> extends [unknown, ...infer R] ? R : never;

/** A GET's success answer, as the document has it. */
export type GetAnswer<P extends GetPath> = SuccessData<Awaited<ReturnType<typeof api.GET<P, GetInit<P>>>>>;

/** A GET of the operation at `path`, cached under its operation key. */
export function apiQuery<P extends GetPath>(path: P, ...init: GetRest<P>) {
  // TypeScript cannot follow openapi-fetch's own signature through a generic path: this is that signature, at P.
  const get = api.GET as unknown as (path: P, ...init: GetRest<P>) => ReturnType<typeof api.GET<P, GetInit<P>>>;
  const params = (init[0] as { params?: KeyParams } | undefined)?.params;
  return queryOptions({ queryKey: operationKey(path, params), queryFn: () => answer(get(path, ...init)) });
}
