/** The development mailbox and the consent record lookup (admins). */
import { useQuery } from '@tanstack/react-query';
import type { MailSummary, MailView } from '../../../shared/mailbox/schemas';
import type { ConsentRecord } from '../../../shared/subscriptions/schemas';
import { usePagedList } from '../../lib/paged-list';
import { getQuery } from '../../lib/query-keys';

const MAILBOX = '/api/admin/mailbox';

/** Refetched when the sink announces new mail (`mailbox:changed`, client/lib/socket.ts). */
export const useMailbox = (options: { refetchOnMount?: 'always' } = {}) => useQuery({ ...getQuery<MailSummary[]>(MAILBOX), ...options });
export const useMail = (id: string) => useQuery(getQuery<MailView>(`${MAILBOX}/${encodeURIComponent(id)}`));
export const useConsentRecord = (email: string | null) =>
  usePagedList<ConsentRecord>(`/api/admin/subscriptions?email=${encodeURIComponent(email ?? '')}`, { enabled: email !== null });
