// The billing report a page of rows at a time (issue 37), like the avatar list: the first answer
// holds the first page and the total row of the whole range; "Load more rows" asks for the next.
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { BILLING_PAGE } from '@parla/shared/limits';
import type { AccountStatsResponse } from '@parla/shared/schemas/billing';
import { apiRequest } from '../../../lib/api-client';

export interface BillingRange {
  /** Epoch ms, included. */
  startDate: number;
  /** Epoch ms, excluded. */
  endDate: number;
}

export function getAccountStats(range: BillingRange, offset = 0): Promise<AccountStatsResponse> {
  const q = new URLSearchParams({ startDate: String(range.startDate), endDate: String(range.endDate), limit: String(BILLING_PAGE) });
  if (offset) q.set('offset', String(offset));
  return apiRequest<AccountStatsResponse>(`/api/account_stats?${q.toString()}`);
}

export function getAccountStatsQueryOptions(range: BillingRange) {
  return infiniteQueryOptions({
    queryKey: ['billing', range.startDate, range.endDate],
    queryFn: ({ pageParam }) => getAccountStats(range, Number(pageParam)),
    initialPageParam: 0,
    getNextPageParam: (last: AccountStatsResponse) => last.nextOffset ?? undefined,
    staleTime: 0,
  });
}

export function useAccountStats(range: BillingRange) {
  return useInfiniteQuery({ ...getAccountStatsQueryOptions(range), placeholderData: keepPreviousData });
}

/** Every row fetched so far, with the first answer's total row (the whole range's). */
export function reportOf(data: InfiniteData<AccountStatsResponse> | undefined) {
  const first = data?.pages[0];
  if (!first) return undefined;
  return { rows: data.pages.flatMap((p) => p.billingData), total: first.cummulativeData };
}
