import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReviewFunctionRecord } from '@parla/shared/schemas/functions';
import { apiRequest } from '../../../lib/api-client';

export function getReviewFunctions(): Promise<{ functions: ReviewFunctionRecord[] }> {
  return apiRequest('/api/admin/functions');
}

export function getReviewFunctionsQueryOptions() {
  return queryOptions({ queryKey: ['function-review'], queryFn: getReviewFunctions, select: (d) => d.functions });
}

export function useReviewFunctions() {
  return useQuery(getReviewFunctionsQueryOptions());
}
