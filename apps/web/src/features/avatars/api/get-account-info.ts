// The account info the editor needs (spec 2 §7): the plan gates custom image avatars and the
// transcript download. Same call and query key as the account screen, so a plan change there
// refreshes the editor too; encryption keys join accountDetails when their area lands.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountInfoResponse } from '@parla/shared/schemas/account';
import { apiRequest } from '../../../lib/api-client';

export type EditorAccountInfo = AccountInfoResponse;

export function getAccountInfo(): Promise<AccountInfoResponse> {
  return apiRequest<AccountInfoResponse>('/api/account_info');
}

export function useEditorAccountInfo() {
  return useQuery(queryOptions({ queryKey: ['account', 'info'], queryFn: getAccountInfo }));
}

/** The web subscription type (spec 1 §3 numeric values); NONE when unknown. */
export function subscriptionTypeOf(info: EditorAccountInfo | undefined): number {
  return info?.accountDetails.licenses.webgl.subscriptionType ?? 0;
}
