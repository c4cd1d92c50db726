/** The account calls of the sign-in and registration pages (docs/domain/members.md). */
import { useQueryClient } from '@tanstack/react-query';
import type { LoginInput, RegisterInput, User } from '../../../shared/members/schemas';
import type { PasswordResetInput } from '../../../shared/members/password-reset';
import { answer, api } from '../../lib/api';
import { CURRENT_USER_KEY, deriveUser } from '../../lib/current-user';

export const register = (form: RegisterInput) => answer(api.POST('/api/auth/register', { body: form }));
export const signIn = (credentials: LoginInput) => answer(api.POST('/api/auth/login', { body: credentials }));
export const requestSignInLink = (email: string) => answer(api.POST('/api/auth/magic-link', { body: { email } }));
/** Always the same answer, whether or not the address has an account. */
export const requestPasswordReset = (email: string) => answer(api.POST('/api/auth/password-reset', { body: { email } }));
/** 404 when the link is used, unknown or expired. */
export const resetPassword = (token: string, input: PasswordResetInput) =>
  answer(api.POST('/api/auth/password-reset/{token}', { params: { path: { token } }, body: input }));

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
