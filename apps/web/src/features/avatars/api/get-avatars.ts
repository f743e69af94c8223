import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AvatarListResponse } from '@parla/shared/schemas/avatar';
import { apiRequest } from '../../../lib/api-client';

export function getAvatars(): Promise<AvatarListResponse> {
  return apiRequest<AvatarListResponse>('/api/avatar/list');
}

export function getAvatarsQueryOptions() {
  return queryOptions({ queryKey: ['avatars'], queryFn: getAvatars });
}

export function useAvatars() {
  return useQuery(getAvatarsQueryOptions());
}
