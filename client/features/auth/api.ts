/** The account calls of the sign-in and registration pages (docs/domain/members.md). */
import { useQueryClient } from '@tanstack/react-query';
import type { LoginInput, RegisterInput, SignInLinkRequested, User } from '../../../shared/members/schemas';
import type { PasswordResetInput, PasswordResetRequested } from '../../../shared/members/password-reset';
import { apiRequest } from '../../lib/api';
import { CURRENT_USER_KEY, deriveUser } from '../../lib/current-user';

export const register = (form: RegisterInput) => apiRequest<User>('POST', '/api/auth/register', form);
export const signIn = (credentials: LoginInput) => apiRequest<User>('POST', '/api/auth/login', credentials);
export const requestSignInLink = (email: string) => apiRequest<SignInLinkRequested>('POST', '/api/auth/magic-link', { email });
/** Always the same answer, whether or not the address has an account. */
export const requestPasswordReset = (email: string) => apiRequest<PasswordResetRequested>('POST', '/api/auth/password-reset', { email });
/** 404 when the link is used, unknown or expired. */
export const resetPassword = (token: string, input: PasswordResetInput) => apiRequest<undefined>('POST', `/api/auth/password-reset/${encodeURIComponent(token)}`, input);

/**
 * After a sign-in: the app knows who they are without asking again. The socket's reconnection as the member is
 * the caller's `go` (client/router.tsx), called at once after this: a visitor's first page has no socket and does
 * not load its code.
 */
export function useSignedIn() {
  const queryClient = useQueryClient();
  return (user: User) => {
    queryClient.setQueryData(CURRENT_USER_KEY, deriveUser(user));
  };
}
