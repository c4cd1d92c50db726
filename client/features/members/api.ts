/** The members feature's reads: a member's profile page. */
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { apiQuery } from '../../lib/query-keys';

/** A member's profile; a 404 (unknown, or suspended) is an answer, not worth asking again. */
export const useMemberProfile = (id: string) =>
  useQuery({
    ...apiQuery('/api/members/{id}', { params: { path: { id } } }),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
