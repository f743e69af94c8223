import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InsightConversationsResponse, InsightResponse } from '@parla/shared/schemas/insight';
import { apiDownload, apiRequest } from '../../../lib/api-client';

const base = (avatarId: string) => `/api/avatars/${encodeURIComponent(avatarId)}/insight`;
const range = (from: string, to: string) => `from=${from}&to=${to}`;

export function getInsight(avatarId: string, from: string, to: string): Promise<InsightResponse> {
  return apiRequest(`${base(avatarId)}?${range(from, to)}`);
}

export function useInsight(avatarId: string, from: string, to: string) {
  return useQuery(
    queryOptions({
      queryKey: ['insight', avatarId, from, to],
      queryFn: () => getInsight(avatarId, from, to),
      staleTime: 0,
      placeholderData: keepPreviousData,
    }),
  );
}

export function getInsightConversations(
  avatarId: string,
  from: string,
  to: string,
  q: string,
  page: number,
  pageSize: number,
): Promise<InsightConversationsResponse> {
  return apiRequest(`${base(avatarId)}/conversations?${range(from, to)}&q=${encodeURIComponent(q)}&page=${page}&pageSize=${pageSize}`);
}

export function useInsightConversations(avatarId: string, from: string, to: string, q: string, page: number, pageSize: number) {
  return useQuery(
    queryOptions({
      queryKey: ['insight', avatarId, from, to, 'conversations', q, page, pageSize],
      queryFn: () => getInsightConversations(avatarId, from, to, q, page, pageSize),
      staleTime: 0,
      placeholderData: keepPreviousData,
    }),
  );
}

/** Downloads the range's transcripts (CSV or JSON) as a file the browser saves. */
export async function downloadInsightExport(avatarId: string, from: string, to: string, q: string, format: 'csv' | 'json'): Promise<void> {
  const blob = await apiDownload(`${base(avatarId)}/export?${range(from, to)}&q=${encodeURIComponent(q)}&format=${format}`);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `conversations-${from}-${to}.${format}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
