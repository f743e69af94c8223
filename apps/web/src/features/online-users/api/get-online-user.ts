import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OnlineUserDetail } from '@parla/shared/schemas/conversation';
import { apiRequest } from '../../../lib/api-client';
import type { OnlineUsersScope } from './get-online-users';

export function getOnlineUser(scope: OnlineUsersScope, sessionId: string): Promise<{ status: 'OK'; userDetail: OnlineUserDetail }> {
  return apiRequest(scope === 'all' ? '/api/get_online_user' : '/api/get_my_online_user', { body: { sessionId, mode: 'get' } });
}

export function getOnlineUserQueryOptions(scope: OnlineUsersScope, sessionId: string) {
  return queryOptions({ queryKey: ['online-users', scope, sessionId], queryFn: () => getOnlineUser(scope, sessionId), staleTime: 0 });
}

export function useOnlineUser(scope: OnlineUsersScope, sessionId: string | null) {
  return useQuery({ ...getOnlineUserQueryOptions(scope, sessionId ?? ''), enabled: !!sessionId });
}
