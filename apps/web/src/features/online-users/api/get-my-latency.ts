import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AvatarLatency } from '@parla/shared/schemas/conversation';
import { apiRequest } from '../../../lib/api-client';

export function getMyLatency(): Promise<{ avatars: AvatarLatency[] }> {
  return apiRequest('/api/list_my_latency', { body: { mode: 'get' } });
}

export function getMyLatencyQueryOptions() {
  return queryOptions({ queryKey: ['online-users', 'latency'], queryFn: getMyLatency, staleTime: 0 });
}

export function useMyLatency() {
  return useQuery(getMyLatencyQueryOptions());
}
