import { QueryClient } from '@tanstack/react-query';
import { apiRequest } from './api';

/**
 * The spec's defaults: no retries, no refetch on focus, never stale. Data is
 * refreshed only when a socket change notice invalidates it.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      queryFn: ({ queryKey }) => apiRequest('GET', queryKey.join('/')),
    },
    mutations: { retry: false },
  },
});
