import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ListAvatarUsersResponse } from '@parla/shared/schemas/avatar';
import { apiRequest } from '../../../lib/api-client';

export function getAvatarUsers(agentId: string): Promise<ListAvatarUsersResponse> {
  return apiRequest<ListAvatarUsersResponse>('/api/list_avatar_users', { body: { agentId, mode: 'get' } });
}

export function getAvatarUsersQueryOptions(agentId: string) {
  return queryOptions({ queryKey: ['avatars', agentId, 'users'], queryFn: () => getAvatarUsers(agentId), staleTime: 0 });
}

export function useAvatarUsers(agentId: string, enabled: boolean) {
  return useQuery({ ...getAvatarUsersQueryOptions(agentId), enabled });
}
