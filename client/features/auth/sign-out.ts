/** Signing out, from the shell (apart from the sign-in pages' calls, so that those do not load the socket's code). */
import { hashKey, useQueryClient } from '@tanstack/react-query';
import { answer, api } from '../../lib/api';
import { CURRENT_USER_KEY } from '../../lib/current-user';
import { resetSocket } from '../../lib/socket';

/** Signs out: the socket reconnects as a guest and nothing of the member's stays cached. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return async () => {
    await answer(api.POST('/api/logout'));
    resetSocket();
    queryClient.setQueryData(CURRENT_USER_KEY, null);
    queryClient.removeQueries({ predicate: (query) => query.queryHash !== hashKey(CURRENT_USER_KEY) });
  };
}
