import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountStatsResponse } from '@parla/shared/schemas/billing';
import { apiRequest } from '../../../lib/api-client';

export interface BillingRange {
  /** Epoch ms, included. */
  startDate: number;
  /** Epoch ms, excluded. */
  endDate: number;
}

export function getAccountStats(range: BillingRange): Promise<AccountStatsResponse> {
  return apiRequest<AccountStatsResponse>(`/api/account_stats?startDate=${range.startDate}&endDate=${range.endDate}`);
}

export function getAccountStatsQueryOptions(range: BillingRange) {
  return queryOptions({ queryKey: ['billing', range.startDate, range.endDate], queryFn: () => getAccountStats(range), staleTime: 0 });
}

export function useAccountStats(range: BillingRange) {
  return useQuery({ ...getAccountStatsQueryOptions(range), placeholderData: keepPreviousData });
}
