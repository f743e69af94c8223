// The customer's functions, a page at a time (decision 221); the server's templates come with
// the first page. `data` is every function fetched so far.
import { useInfiniteQuery } from '@tanstack/react-query';
import type { FunctionRecord } from '@parla/shared/schemas/functions';
import { apiRequest } from '../../../lib/api-client';
import { pagedQueryOptions, pageQueryString } from '../../../lib/paged-query';

export function getFunctions(offset = 0): Promise<{ functions: FunctionRecord[]; nextOffset: number | null }> {
  return apiRequest(`/api/functions?${pageQueryString(offset)}`);
}

export function getFunctionsQueryOptions() {
  return pagedQueryOptions(
    ['functions'],
    getFunctions,
    (a) => a.functions,
    (f) => f.id,
  );
}

export function useFunctions() {
  return useInfiniteQuery(getFunctionsQueryOptions());
}
