import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CustomersResponse } from '@parla/shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';

export function getCustomers(search: string): Promise<CustomersResponse> {
  const q = search.trim() ? `?search=${encodeURIComponent(search.trim())}` : '';
  return apiRequest<CustomersResponse>(`/api/admin/customers${q}`);
}

export function getCustomersQueryOptions(search: string) {
  return queryOptions({ queryKey: ['customers', search.trim()], queryFn: () => getCustomers(search), staleTime: 0 });
}

export function useCustomers(search: string) {
  return useQuery({ ...getCustomersQueryOptions(search), placeholderData: keepPreviousData });
}
