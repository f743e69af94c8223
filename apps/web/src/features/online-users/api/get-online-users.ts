// Online users, a page at a time, newest first (decision 221). `data` is every conversation
// fetched so far; Refresh reads the pages in hand again.
import { useInfiniteQuery } from '@tanstack/react-query';
import { LIST_PAGE } from '@parla/shared/limits';
import type { OnlineUser } from '@parla/shared/schemas/conversation';
import { apiRequest } from '../../../lib/api-client';
import { pagedQueryOptions } from '../../../lib/paged-query';

/** 'all': every conversation (administrators); 'mine': the signed-in customer's avatars. */
export type OnlineUsersScope = 'all' | 'mine';

export function getOnlineUsers(scope: OnlineUsersScope, offset = 0): Promise<{ onlineUsers: OnlineUser[]; nextOffset: number | null }> {
  return apiRequest(scope === 'all' ? '/api/list_online_users' : '/api/list_my_online_users', {
    body: { mode: 'get', limit: LIST_PAGE, offset },
  });
}

export function getOnlineUsersQueryOptions(scope: OnlineUsersScope) {
  return pagedQueryOptions(
    ['online-users', scope],
    (offset) => getOnlineUsers(scope, offset),
    (a) => a.onlineUsers,
    (u) => u.sessionId,
  );
}

export function useOnlineUsers(scope: OnlineUsersScope) {
  return useInfiniteQuery({ ...getOnlineUsersQueryOptions(scope), staleTime: 0 });
}
