// A collection's items, a page at a time, newest first (decision 221). The knowledge API answers
// a bare list: a full page means the next offset may hold more. `data` is every item fetched so
// far; while one of them is queued or processing, the pages in hand refresh themselves.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { KnowledgeItem } from '@parla/shared/schemas/knowledge';
import { listPageParam, pageQueryString, uniqueRows } from '../../../lib/paged-query';
import { kbRequest } from './kb-request';

/** While an item is queued or processing, the list refreshes itself this often. */
export const ITEMS_POLL_MS = 1500;

export function getItems(collectionId: string, offset = 0): Promise<KnowledgeItem[]> {
  return kbRequest(`/kb/v1/collections/${encodeURIComponent(collectionId)}/items?${pageQueryString(offset)}`);
}

export function getItemsQueryOptions(collectionId: string) {
  return infiniteQueryOptions({
    queryKey: ['knowledge', 'items', collectionId],
    queryFn: ({ pageParam }) => getItems(collectionId, pageParam),
    initialPageParam: 0,
    getNextPageParam: listPageParam,
    select: (data) => uniqueRows(data.pages.flat(), (i) => i.id),
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.some((i) => i.status === 'queued' || i.status === 'processing')) ? ITEMS_POLL_MS : false,
  });
}

export function useItems(collectionId: string) {
  return useInfiniteQuery(getItemsQueryOptions(collectionId));
}
