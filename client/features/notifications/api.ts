/** The member's notifications (docs/domain/notifications.md). */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Notification } from '../../../shared/notifications/schemas';
import { apiRequest } from '../../lib/api';
import { apiKey } from '../../lib/query-keys';

export type { Notification };
type NotificationPage = { items: Notification[]; unread: number; nextCursor: string | null };

const NOTIFICATIONS = '/api/notifications';

/** The unread count the sidebar shows, kept live by `notifications:changed`. */
export const useUnreadNotifications = (enabled: boolean) =>
  useQuery({ queryKey: apiKey(`${NOTIFICATIONS}?limit=1`), queryFn: () => apiRequest<NotificationPage>('GET', `${NOTIFICATIONS}?limit=1`), enabled, select: (page) => page.unread });

export function useNotifications() {
  const list = useInfiniteQuery({
    queryKey: [...apiKey(NOTIFICATIONS), 'pages'],
    queryFn: ({ pageParam }) => apiRequest<NotificationPage>('GET', pageParam ? `${NOTIFICATIONS}?cursor=${encodeURIComponent(pageParam)}` : NOTIFICATIONS),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const items = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  return { list, items, unread: list.data?.pages.at(-1)?.unread ?? 0 };
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => apiRequest<NotificationPage>('PUT', `${NOTIFICATIONS}/read`, ids ? { ids } : {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKey(NOTIFICATIONS) }),
  });
}
