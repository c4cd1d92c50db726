import { useQuery } from '@tanstack/react-query';
import type { Role } from '../../shared/domain';
import type { User } from '../../shared/members/schemas';
import { answer, api } from './api';
import { operationKey } from './query-keys';

export type { Role };

export interface CurrentUser extends User {
  name: string;
  avatar: string | null;
}

export const CURRENT_USER_KEY = operationKey('/api/auth/session');

/** The spec's derived user: first and last name, else the e-mail's local part, else "User". */
export function deriveUser(user: User): CurrentUser {
  const name = user.firstName && user.lastName ? `${user.firstName} ${user.lastName}` : user.email?.split('@')[0] || 'User';
  return { ...user, name, avatar: user.profileImageUrl ?? null, role: user.role ?? 'member' };
}

/** The signed-in member, or null when signed out. */
export function useCurrentUser() {
  return useQuery({
    queryKey: CURRENT_USER_KEY,
    queryFn: async () => {
      const { user } = await answer(api.GET('/api/auth/session'));
      return user && deriveUser(user);
    },
  });
}

export const isStaff = (role: Role | undefined) => role === 'admin' || role === 'staff';
