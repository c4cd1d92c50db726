/** The member's notifications (docs/domain/notifications.md). */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Notification } from '../../../shared/notifications/schemas';
import { answer, api } from '../../lib/api';
import { apiQuery, operationKey } from '../../lib/query-keys';

export type { Notification };

/** The unread count the sidebar shows, kept live by `notifications:changed`. */
export const useUnreadNotifications = (enabled: boolean) =>
  useQuery({ ...apiQuery('/api/notifications', { params: { query: { limit: '1' } } }), enabled, select: (page) => page.unread });

export function useNotifications() {
  const list = useInfiniteQuery({
    queryKey: [...operationKey('/api/notifications'), 'pages'],
    queryFn: ({ pageParam }) => answer(api.GET('/api/notifications', { params: { query: pageParam ? { cursor: pageParam } : {} } })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  return { list, items, unread: list.data?.pages.at(-1)?.unread ?? 0 };
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => answer(api.PUT('/api/notifications/read', { body: ids ? { ids } : {} })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operationKey('/api/notifications') }),
  });
}
