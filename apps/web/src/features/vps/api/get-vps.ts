import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Vps } from '@parla/shared/schemas/conversation';
import { apiRequest } from '../../../lib/api-client';

export function getVps(vpsId: string): Promise<{ status: 'OK'; vpsDetail: Vps }> {
  return apiRequest('/api/get_vps', { body: { vpsId, mode: 'get' } });
}

export function getVpsQueryOptions(vpsId: string) {
  return queryOptions({ queryKey: ['vps', vpsId], queryFn: () => getVps(vpsId), staleTime: 0 });
}

export function useVps(vpsId: string | null) {
  return useQuery({ ...getVpsQueryOptions(vpsId ?? ''), enabled: !!vpsId });
}
