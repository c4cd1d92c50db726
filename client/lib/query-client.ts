import { QueryClient } from '@tanstack/react-query';

/**
 * The spec's defaults: no retries, no refetch on focus, never stale. Data is
 * refreshed only when a socket change notice invalidates it. Every query names
 * its own key and fetch (client/lib/query-keys.ts, each feature's api.ts).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
    },
    mutations: { retry: false },
  },
});
