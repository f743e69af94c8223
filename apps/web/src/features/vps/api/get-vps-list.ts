import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Vps } from '@parla/shared/schemas/conversation';
import { apiRequest } from '../../../lib/api-client';

export function getVpsList(): Promise<{ vpsList: Vps[] }> {
  return apiRequest('/api/list_vps');
}

export function getVpsListQueryOptions() {
  return queryOptions({ queryKey: ['vps'], queryFn: getVpsList, staleTime: 0 });
}

export function useVpsList() {
  return useQuery(getVpsListQueryOptions());
}
