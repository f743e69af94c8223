// Functions an avatar can link (Brain tab, FUNCTIONS): only approved ones (spec 2 §2).
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export interface RealtimeFunction {
  id: string;
  name: string;
  code?: string;
  /** 0 Pending, 1 Approved, 2 Rejected */
  approvalStatus: number;
  createDate: string;
}

export const FunctionApproval = { Pending: 0, Approved: 1, Rejected: 2 } as const;

export function getRealtimeFunctions(): Promise<{ functions: RealtimeFunction[] }> {
  return apiRequest<{ functions: RealtimeFunction[] }>('/api/realtime_functions');
}

export function useRealtimeFunctions(enabled: boolean) {
  return useQuery({ queryKey: ['avatars', 'realtime-functions'], queryFn: getRealtimeFunctions, enabled });
}
