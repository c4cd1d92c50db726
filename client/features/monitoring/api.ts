/** The monitoring page's figures (staff), refetched on `monitoring:changed`. */
import { useQuery } from '@tanstack/react-query';
import { apiQuery } from '../../lib/query-keys';

export const useMonitoring = (enabled: boolean) => useQuery({ ...apiQuery('/api/admin/monitoring'), enabled });
