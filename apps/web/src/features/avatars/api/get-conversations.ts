import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ConversationListItem } from '@parla/shared/schemas/transcripts';
import { apiRequest } from '../../../lib/api-client';

export interface ConversationsPage {
  conversations: ConversationListItem[];
  total: number;
  page: number;
  pageSize: number;
}

export function getConversations(avatarId: string, page: number, pageSize: number): Promise<ConversationsPage> {
  return apiRequest(`/api/avatars/${encodeURIComponent(avatarId)}/conversations?page=${page}&pageSize=${pageSize}`);
}

export function getConversationsQueryOptions(avatarId: string, page: number, pageSize: number) {
  return queryOptions({
    queryKey: ['transcripts', avatarId, page, pageSize],
    queryFn: () => getConversations(avatarId, page, pageSize),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useConversations(avatarId: string, page: number, pageSize: number, enabled: boolean) {
  return useQuery({ ...getConversationsQueryOptions(avatarId, page, pageSize), enabled });
}
