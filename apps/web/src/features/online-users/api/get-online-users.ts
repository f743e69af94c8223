import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OnlineUser } from '@parla/shared/schemas/conversation';
import { apiRequest } from '../../../lib/api-client';

/** 'all': every conversation (administrators); 'mine': the signed-in customer's avatars. */
export type OnlineUsersScope = 'all' | 'mine';

export function getOnlineUsers(scope: OnlineUsersScope): Promise<{ onlineUsers: OnlineUser[] }> {
  return apiRequest(scope === 'all' ? '/api/list_online_users' : '/api/list_my_online_users', { body: { mode: 'get' } });
}

export function getOnlineUsersQueryOptions(scope: OnlineUsersScope) {
  return queryOptions({ queryKey: ['online-users', scope], queryFn: () => getOnlineUsers(scope), staleTime: 0 });
}

export function useOnlineUsers(scope: OnlineUsersScope) {
  return useQuery(getOnlineUsersQueryOptions(scope));
}
