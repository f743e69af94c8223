import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountInfoResponse } from '@parla/shared/schemas/account';
import { apiRequest } from '../../../lib/api-client';

export function getAccountInfo(): Promise<AccountInfoResponse> {
  return apiRequest<AccountInfoResponse>('/api/account_info');
}

/** Key ['account', 'info']: a plan change request invalidates ['account']. */
export function getAccountInfoQueryOptions() {
  return queryOptions({ queryKey: ['account', 'info'], queryFn: getAccountInfo });
}

export function useAccountInfo() {
  return useQuery(getAccountInfoQueryOptions());
}
