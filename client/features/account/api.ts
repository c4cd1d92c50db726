/** The member's own account calls (docs/domain/members.md#own-account), with the hooks the account page uses. */
import { hashKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answer, api, uploadMedia } from '../../lib/api';
import { apiQuery, operationKey } from '../../lib/query-keys';
import { CURRENT_USER_KEY, deriveUser } from '../../lib/current-user';
import { resetSocket } from '../../lib/socket';
import type { EraseAccountInput } from '../../../shared/members/erasure';
import type { EmailChangeInput, PasswordChangeInput, ProfileChangeInput, User } from '../../../shared/members/schemas';

export const SESSIONS_KEY = operationKey('/api/me/sessions');

/** The member's signed-in browsers, this one first. */
export function useSessions() {
  return useQuery(apiQuery('/api/me/sessions'));
}

/** Every page that shows the member (the sidebar, the account page) reads the current user: it takes the answer at once. */
function useUserAnswer() {
  const queryClient = useQueryClient();
  return (user: User) => queryClient.setQueryData(CURRENT_USER_KEY, deriveUser(user));
}

export function useUpdateProfile() {
  const answered = useUserAnswer();
  return useMutation({
    mutationFn: (changes: ProfileChangeInput) => answer(api.PATCH('/api/me', { body: changes })),
    onSuccess: answered,
  });
}

/** Other sessions end with a password change: the list is read again. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordChangeInput) => answer(api.PUT('/api/me/password', { body: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useRequestEmailChange() {
  return useMutation({ mutationFn: (input: EmailChangeInput) => answer(api.POST('/api/me/email', { body: input })) });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => answer(api.DELETE('/api/me/sessions/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => answer(api.POST('/api/me/sessions/end-others')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}

function uploadImage(file: File) {
  const body = new FormData();
  body.append('file', file);
  return uploadMedia(body);
}

/** Uploads the picture (POST /api/media), then makes it the avatar (PUT /api/me/avatar). */
export function useChangePicture() {
  const answered = useUserAnswer();
  return useMutation({
    mutationFn: async (file: File) => {
      const media = await uploadImage(file);
      return answer(api.PUT('/api/me/avatar', { body: { mediaId: media.id } }));
    },
    onSuccess: answered,
  });
}

/** Erases the account (DELETE /api/me): every session ends, so the browser forgets the member as a sign-out does. */
export function useEraseAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EraseAccountInput) => answer(api.DELETE('/api/me', { body: input })),
    onSuccess: () => {
      resetSocket();
      queryClient.setQueryData(CURRENT_USER_KEY, null);
      queryClient.removeQueries({ predicate: (query) => query.queryHash !== hashKey(CURRENT_USER_KEY) });
    },
  });
}
