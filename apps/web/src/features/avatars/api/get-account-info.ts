// The parts of GET /api/account_info the editor needs (spec 2 §7): the plan (custom image
// avatars, transcript download) and the encryption keys. The account feature owns the call;
// this typed client reads only these fields and tolerates the rest.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export interface EditorAccountInfo {
  accountDetails: {
    licenses?: { webgl?: { subscriptionType?: number } };
    requestedSubType?: number | null;
    encKeys?: { id: string; name?: string; defaultKey?: boolean }[];
    [key: string]: unknown;
  };
}

export function getAccountInfo(): Promise<EditorAccountInfo> {
  return apiRequest<EditorAccountInfo>('/api/account_info');
}

export function useEditorAccountInfo() {
  return useQuery(queryOptions({ queryKey: ['avatars', 'account-info'], queryFn: getAccountInfo, staleTime: 60_000 }));
}

/** The web subscription type (spec 1 §3 numeric values); NONE when unknown. */
export function subscriptionTypeOf(info: EditorAccountInfo | undefined): number {
  return info?.accountDetails.licenses?.webgl?.subscriptionType ?? 0;
}
