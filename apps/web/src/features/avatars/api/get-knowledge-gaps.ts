import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { GapStatus, KnowledgeGapsResponse } from '@parla/shared/schemas/insight';
import { apiRequest } from '../../../lib/api-client';

export function getKnowledgeGaps(avatarId: string, status: GapStatus, page: number, pageSize: number): Promise<KnowledgeGapsResponse> {
  return apiRequest(`/api/avatars/${encodeURIComponent(avatarId)}/knowledge-gaps?status=${status}&page=${page}&pageSize=${pageSize}`);
}

export function getKnowledgeGapsQueryOptions(avatarId: string, status: GapStatus, page: number, pageSize: number) {
  return queryOptions({
    queryKey: ['knowledge-gaps', avatarId, status, page, pageSize],
    queryFn: () => getKnowledgeGaps(avatarId, status, page, pageSize),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useKnowledgeGaps(avatarId: string, status: GapStatus, page: number, pageSize: number) {
  return useQuery(getKnowledgeGapsQueryOptions(avatarId, status, page, pageSize));
}
