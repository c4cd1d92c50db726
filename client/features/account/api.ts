/** The member's own account calls (docs/domain/members.md#own-account), with the hooks the account page uses. */
import { hashKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../lib/api';
import { apiKey } from '../../lib/query-keys';
import { CURRENT_USER_KEY, deriveUser } from '../../lib/current-user';
import { resetSocket } from '../../lib/socket';
import type { EraseAccountInput } from '../../../shared/members/erasure';
import type { EmailChangeInput, EmailChangeRequested, OpenSessions, PasswordChangeInput, ProfileChangeInput, SessionsEnded, User } from '../../../shared/members/schemas';

const SESSIONS = '/api/me/sessions';
export const SESSIONS_KEY = apiKey(SESSIONS);

/** The member's signed-in browsers, this one first. */
export function useSessions() {
  return useQuery({ queryKey: SESSIONS_KEY, queryFn: () => apiRequest<OpenSessions>('GET', SESSIONS) });
}

/** Every page that shows the member (the sidebar, the account page) reads the current user: it takes the answer at once. */
function useUserAnswer() {
  const queryClient = useQueryClient();
  return (user: User) => queryClient.setQueryData(CURRENT_USER_KEY, deriveUser(user));
}

export function useUpdateProfile() {
  const answered = useUserAnswer();
  return useMutation({
    mutationFn: (changes: ProfileChangeInput) => apiRequest<User>('PATCH', '/api/me', changes),
    onSuccess: answered,
  });
}

/** Other sessions end with a password change: the list is read again. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordChangeInput) => apiRequest('PUT', '/api/me/password', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useRequestEmailChange() {
  return useMutation({ mutationFn: (input: EmailChangeInput) => apiRequest<EmailChangeRequested>('POST', '/api/me/email', input) });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `${SESSIONS}/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<SessionsEnded>('POST', `${SESSIONS}/end-others`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

/** A multipart upload: apiRequest speaks JSON only. Errors take the same ApiError shape. */
async function uploadImage(file: File): Promise<{ id: string }> {
  const body = new FormData();
  body.append('file', file);
  const response = await fetch('/api/media', { method: 'POST', body, credentials: 'include' });
  const text = await response.text();
  if (!response.ok) {
    let parsed: { message?: string; fields?: Record<string, string> } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // not JSON: the text itself is the detail
    }
    throw new ApiError(response.status, text || response.statusText, parsed.message ?? null, parsed.fields ?? {});
  }
  return JSON.parse(text) as { id: string };
}

/** Uploads the picture (POST /api/media), then makes it the avatar (PUT /api/me/avatar). */
export function useChangePicture() {
  const answered = useUserAnswer();
  return useMutation({
    mutationFn: async (file: File) => {
      const media = await uploadImage(file);
      return apiRequest<User>('PUT', '/api/me/avatar', { mediaId: media.id });
    },
    onSuccess: answered,
  });
}

/** Erases the account (DELETE /api/me): every session ends, so the browser forgets the member as a sign-out does. */
export function useEraseAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EraseAccountInput) => apiRequest('DELETE', '/api/me', input),
    onSuccess: () => {
      resetSocket();
      queryClient.setQueryData(CURRENT_USER_KEY, null);
      queryClient.removeQueries({ predicate: (query) => query.queryHash !== hashKey(CURRENT_USER_KEY) });
    },
  });
}
