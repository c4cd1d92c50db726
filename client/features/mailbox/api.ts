/** The development mailbox and the consent record lookup (admins). */
import { useQuery } from '@tanstack/react-query';
import { usePages } from '../../lib/paged-list';
import { apiQuery } from '../../lib/query-keys';

/** Refetched when the sink announces new mail (`mailbox:changed`, client/lib/socket.ts). */
export const useMailbox = (options: { refetchOnMount?: 'always' } = {}) => useQuery({ ...apiQuery('/api/admin/mailbox'), ...options });
export const useMail = (id: string) => useQuery(apiQuery('/api/admin/mailbox/{id}', { params: { path: { id } } }));
export const useConsentRecord = (email: string | null) =>
  usePages('/api/admin/subscriptions', { params: { query: { email: email ?? '' } } }, { enabled: email !== null });
