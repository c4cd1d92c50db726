/** The admin dashboard's calls: its figures, the moderation queue and member management (staff). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../../shared/domain';
import type { MemberRow } from '../../../shared/members/schemas';
import type { ReportTargetType } from '../../../shared/reports/schemas';
import { answer, api } from '../../lib/api';
import { usePages } from '../../lib/paged-list';
import { apiQuery, operationKey } from '../../lib/query-keys';

export const useAdminStats = () => useQuery(apiQuery('/api/admin/stats'));
export const usePendingPosts = () => usePages('/api/admin/posts/pending', undefined);
/** The user list's search and filters, as the server takes them (docs/domain/members.md#user-list); '' is any. */
export interface MemberFilters {
  q: string;
  role: Role | '';
  status: MemberRow['status'] | '';
  suspended: 'true' | 'false' | '';
}
export function useMembers(filters: MemberFilters) {
  const query = {
    q: filters.q || undefined,
    role: filters.role || undefined,
    status: filters.status || undefined,
    suspended: filters.suspended || undefined,
  };
  return usePages('/api/admin/users', { params: { query } }, { keepPrevious: true });
}
export const useReports = () => usePages('/api/admin/reports', undefined);

export type AdminAction =
  | { do: 'approve'; postId: string }
  | { do: 'reject'; postId: string; reason?: string | undefined }
  | { do: 'role'; memberId: string; role: Role }
  | { do: 'suspend' | 'unsuspend'; memberId: string }
  | { do: 'dismiss' | 'remove'; targetType: ReportTargetType; targetId: string };

/** The answer differs by action (a post, a member, nothing); the dashboard only awaits it. */
export function runAdminAction(action: AdminAction): Promise<unknown> {
  switch (action.do) {
    case 'approve':
      return answer(api.PUT('/api/admin/posts/{id}/approve', { params: { path: { id: action.postId } } }));
    case 'reject':
      return answer(
        api.PUT('/api/admin/posts/{id}/reject', {
          params: { path: { id: action.postId } },
          body: action.reason ? { reason: action.reason } : {},
        }),
      );
    case 'role':
      return answer(api.PUT('/api/admin/users/{id}/role', { params: { path: { id: action.memberId } }, body: { role: action.role } }));
    case 'suspend':
      return answer(api.PUT('/api/admin/users/{id}/suspend', { params: { path: { id: action.memberId } } }));
    case 'unsuspend':
      return answer(api.PUT('/api/admin/users/{id}/unsuspend', { params: { path: { id: action.memberId } } }));
    case 'dismiss':
      return answer(
        api.PUT('/api/admin/reports/{targetType}/{targetId}/dismiss', {
          params: { path: { targetType: action.targetType, targetId: action.targetId } },
        }),
      );
    case 'remove':
      return answer(
        api.PUT('/api/admin/reports/{targetType}/{targetId}/remove', {
          params: { path: { targetType: action.targetType, targetId: action.targetId } },
        }),
      );
  }
}

/** The dashboard's reads and the feed, refetched after an action. */
export function useRefreshAdmin() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([operationKey('/api/admin'), operationKey('/api/posts')].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
