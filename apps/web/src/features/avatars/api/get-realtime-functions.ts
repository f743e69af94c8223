// Functions an avatar can link (Brain tab, FUNCTIONS): only approved ones (spec 2 §2).
import { useQuery } from '@tanstack/react-query';
import type { FunctionRecord } from '@parla/shared/schemas/functions';
import { apiRequest } from '../../../lib/api-client';

export type RealtimeFunction = Pick<FunctionRecord, 'id' | 'name' | 'approvalStatus' | 'createDate'>;

/** The spec numbers the statuses (1 Approved); the functions area names them. */
export function isApproved(f: { approvalStatus: unknown }): boolean {
  return f.approvalStatus === 'Approved' || f.approvalStatus === 1;
}

export function getRealtimeFunctions(): Promise<{ functions: RealtimeFunction[] }> {
  return apiRequest<{ functions: RealtimeFunction[] }>('/api/realtime_functions');
}

export function useRealtimeFunctions(enabled: boolean) {
  return useQuery({ queryKey: ['avatars', 'realtime-functions'], queryFn: getRealtimeFunctions, enabled });
}
