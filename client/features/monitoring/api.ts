/** The monitoring page's figures (staff), refetched on `monitoring:changed`. */
import { useQuery } from '@tanstack/react-query';
import type { Monitoring } from '../../../shared/monitoring/schemas';
import { getQuery } from '../../lib/query-keys';

export const useMonitoring = (enabled: boolean) => useQuery({ ...getQuery<Monitoring>('/api/admin/monitoring'), enabled });
