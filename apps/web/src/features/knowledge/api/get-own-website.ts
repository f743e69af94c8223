// The customer's own website (account info, knowledge section): the Add Knowledge URL rows start
// with it. Same call and key as the account screen.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountInfoResponse } from '@parla/shared/schemas/account';
import { apiRequest } from '../../../lib/api-client';

export function useOwnWebsite(): string | null {
  const info = useQuery(
    queryOptions({ queryKey: ['account', 'info'], queryFn: () => apiRequest<AccountInfoResponse>('/api/account_info') }),
  );
  return info.data?.accountDetails.ownWebsite ?? null;
}
