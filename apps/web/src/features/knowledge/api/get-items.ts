import { queryOptions, useQuery } from '@tanstack/react-query';
import type { KnowledgeItem } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

/** While an item is queued or processing, the list refreshes itself this often. */
export const ITEMS_POLL_MS = 1500;

export function getItems(collectionId: string): Promise<KnowledgeItem[]> {
  return kbRequest(`/kb/v1/collections/${encodeURIComponent(collectionId)}/items`);
}

export function getItemsQueryOptions(collectionId: string) {
  return queryOptions({
    queryKey: ['knowledge', 'items', collectionId],
    queryFn: () => getItems(collectionId),
    refetchInterval: (query) => (query.state.data?.some((i) => i.status === 'queued' || i.status === 'processing') ? ITEMS_POLL_MS : false),
  });
}

export function useItems(collectionId: string) {
  return useQuery(getItemsQueryOptions(collectionId));
}
