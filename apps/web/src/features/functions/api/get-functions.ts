import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FunctionRecord } from '@parla/shared/schemas/functions';
import { apiRequest } from '../../../lib/api-client';

export function getFunctions(): Promise<{ functions: FunctionRecord[] }> {
  return apiRequest('/api/functions');
}

export function getFunctionsQueryOptions() {
  return queryOptions({ queryKey: ['functions'], queryFn: getFunctions, select: (d) => d.functions });
}

export function useFunctions() {
  return useQuery(getFunctionsQueryOptions());
}
