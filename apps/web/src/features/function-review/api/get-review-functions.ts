// Every customer's functions for review, Pending first, a page at a time (decision 221).
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReviewFunctionRecord } from '@parla/shared/schemas/functions';
import { apiRequest } from '../../../lib/api-client';
import { pagedQueryOptions, pageQueryString } from '../../../lib/paged-query';

export function getReviewFunctions(offset = 0): Promise<{ functions: ReviewFunctionRecord[]; nextOffset: number | null }> {
  return apiRequest(`/api/admin/functions?${pageQueryString(offset)}`);
}

export function getReviewFunctionsQueryOptions() {
  return pagedQueryOptions(
    ['function-review'],
    getReviewFunctions,
    (a) => a.functions,
    (f) => f.id,
  );
}

export function useReviewFunctions() {
  return useInfiniteQuery(getReviewFunctionsQueryOptions());
}
