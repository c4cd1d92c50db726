/** The admin dashboard's calls: its figures, the moderation queue and member management (staff). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../../shared/domain';
import type { AdminStats, Post } from '../../../shared/feed/schemas';
import type { MemberRow } from '../../../shared/members/schemas';
import type { ReportGroup, ReportTargetType } from '../../../shared/reports/schemas';
import { apiRequest } from '../../lib/api';
import { usePagedList } from '../../lib/paged-list';
import { apiKey, getQuery } from '../../lib/query-keys';

export const useAdminStats = () => useQuery(getQuery<AdminStats>('/api/admin/stats'));
export const usePendingPosts = () => usePagedList<Post>('/api/admin/posts/pending');
/** The user list's search and filters, as the server takes them (docs/domain/members.md#user-list); '' is any. */
export interface MemberFilters {
  q: string;
  role: Role | '';
  status: MemberRow['status'] | '';
  suspended: 'true' | 'false' | '';
}
export function useMembers(filters: MemberFilters) {
  const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== '')).toString();
  return usePagedList<MemberRow>(`/api/admin/users${query ? `?${query}` : ''}`, { keepPrevious: true });
}
export const useReports = () => usePagedList<ReportGroup>('/api/admin/reports');

export type AdminAction = { do: 'approve'; postId: string } | { do: 'reject'; postId: string; reason?: string | undefined } | { do: 'role'; memberId: string; role: Role } | { do: 'suspend' | 'unsuspend'; memberId: string } | { do: 'dismiss' | 'remove'; targetType: ReportTargetType; targetId: string };

export function runAdminAction(action: AdminAction) {
  switch (action.do) {
    case 'approve':
      return apiRequest<Post>('PUT', `/api/admin/posts/${encodeURIComponent(action.postId)}/approve`, {});
    case 'reject':
      return apiRequest<Post>('PUT', `/api/admin/posts/${encodeURIComponent(action.postId)}/reject`, action.reason ? { reason: action.reason } : {});
    case 'role':
      return apiRequest<MemberRow>('PUT', `/api/admin/users/${encodeURIComponent(action.memberId)}/role`, { role: action.role });
    case 'suspend':
    case 'unsuspend':
      return apiRequest('PUT', `/api/admin/users/${encodeURIComponent(action.memberId)}/${action.do}`, {});
    case 'dismiss':
    case 'remove':
      return apiRequest('PUT', `/api/admin/reports/${action.targetType}/${encodeURIComponent(action.targetId)}/${action.do}`, {});
  }
}

/** The dashboard's reads and the feed, refetched after an action. */
export function useRefreshAdmin() {
  const queryClient = useQueryClient();
  return () => Promise.all(['/api/admin', '/api/posts'].map((address) => queryClient.invalidateQueries({ queryKey: apiKey(address) })));
}
