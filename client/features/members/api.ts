/** The members feature's reads: a member's profile page. */
import { useQuery } from '@tanstack/react-query';
import type { MemberProfile } from '../../../shared/members/profile';
import { ApiError } from '../../lib/api';
import { getQuery } from '../../lib/query-keys';

export const memberAddress = (id: string) => `/api/members/${encodeURIComponent(id)}`;

/** A member's profile; a 404 (unknown, or suspended) is an answer, not worth asking again. */
export const useMemberProfile = (id: string) =>
  useQuery({ ...getQuery<MemberProfile>(memberAddress(id)), retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2 });
