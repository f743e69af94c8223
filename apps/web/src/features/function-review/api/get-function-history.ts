import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FunctionAuditEntry } from '@parla/shared/schemas/functions';
import { apiRequest } from '../../../lib/api-client';

export function getFunctionHistory(id: string): Promise<{ history: FunctionAuditEntry[] }> {
  return apiRequest(`/api/admin/functions/${encodeURIComponent(id)}/history`);
}

export function getFunctionHistoryQueryOptions(id: string) {
  return queryOptions({ queryKey: ['function-review', 'history', id], queryFn: () => getFunctionHistory(id), select: (d) => d.history });
}

export function useFunctionHistory(id: string) {
  return useQuery(getFunctionHistoryQueryOptions(id));
}
