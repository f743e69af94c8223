// The customers desk, a page at a time (decision 221); the search asks the server, so it sees
// every customer. `data` is every customer fetched so far.
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { CustomersResponse } from '@parla/shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';
import { pagedQueryOptions, pageQueryString } from '../../../lib/paged-query';

export function getCustomers(search: string, offset = 0): Promise<CustomersResponse> {
  return apiRequest<CustomersResponse>(`/api/admin/customers?${pageQueryString(offset, search)}`);
}

export function getCustomersQueryOptions(search: string) {
  return pagedQueryOptions(
    ['customers', search.trim()],
    (offset) => getCustomers(search, offset),
    (a) => a.customers,
    (c) => c.id,
  );
}

export function useCustomers(search: string) {
  return useInfiniteQuery({ ...getCustomersQueryOptions(search), staleTime: 0, placeholderData: keepPreviousData });
}
