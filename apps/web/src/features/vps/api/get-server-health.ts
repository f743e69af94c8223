// GET /api/health: the VPS screen shows when the server's disk is low or full (decision 013).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export interface ServerHealth {
  status: 'OK';
  db: 'ok';
  disk: 'ok' | 'low' | 'full';
}

export function getServerHealth(): Promise<ServerHealth> {
  return apiRequest('/api/health');
}

export function getServerHealthQueryOptions() {
  return queryOptions({ queryKey: ['server-health'], queryFn: getServerHealth, staleTime: 0, refetchInterval: 30_000 });
}

export function useServerHealth() {
  return useQuery(getServerHealthQueryOptions());
}
