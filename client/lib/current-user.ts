import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from './api';

export type Role = 'admin' | 'staff' | 'member' | 'subscriber';

export interface ServerUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  profileImageUrl: string | null;
  role: Role;
}

export interface CurrentUser extends ServerUser {
  name: string;
  avatar: string | null;
}

export const CURRENT_USER_KEY = ['/api/auth/user'];

/** The spec's derived user: first and last name, else the e-mail's local part, else "User". */
export function deriveUser(user: ServerUser): CurrentUser {
  const name = user.firstName && user.lastName ? `${user.firstName} ${user.lastName}` : user.email?.split('@')[0] || 'User';
  return { ...user, name, avatar: user.profileImageUrl ?? null, role: user.role ?? 'member' };
}

/** The signed-in member, or null when signed out (a 401 is an answer here, not an error). */
export function useCurrentUser() {
  return useQuery({
    queryKey: CURRENT_USER_KEY,
    queryFn: async () => {
      try {
        return deriveUser(await apiRequest<ServerUser>('GET', '/api/auth/user'));
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
  });
}

export const isStaff = (role: Role | undefined) => role === 'admin' || role === 'staff';
