/** The account calls of the sign-in and registration pages (docs/domain/members.md). */
import { hashKey, useQueryClient } from '@tanstack/react-query';
import type { LoginInput, RegisterInput, SignInLinkRequested, User } from '../../../shared/members/schemas';
import { apiRequest } from '../../lib/api';
import { CURRENT_USER_KEY, deriveUser } from '../../lib/current-user';
import { resetSocket } from '../../lib/socket';

export const register = (form: RegisterInput) => apiRequest<User>('POST', '/api/auth/register', form);
export const signIn = (credentials: LoginInput) => apiRequest<User>('POST', '/api/auth/login', credentials);
export const requestSignInLink = (email: string) => apiRequest<SignInLinkRequested>('POST', '/api/auth/magic-link', { email });

/** After a sign-in: the socket reconnects as the member, and the app knows who they are without asking again. */
export function useSignedIn() {
  const queryClient = useQueryClient();
  return (user: User) => {
    resetSocket();
    queryClient.setQueryData(CURRENT_USER_KEY, deriveUser(user));
  };
}

/** Signs out: the socket reconnects as a guest and nothing of the member's stays cached. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return async () => {
    await apiRequest('POST', '/api/logout');
    resetSocket();
    queryClient.setQueryData(CURRENT_USER_KEY, null);
    queryClient.removeQueries({ predicate: (query) => query.queryHash !== hashKey(CURRENT_USER_KEY) });
  };
}
