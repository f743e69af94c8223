import { queryOptions, useQuery } from '@tanstack/react-query';
import type { KnowledgeCollection } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

export function getCollections(): Promise<KnowledgeCollection[]> {
  return kbRequest('/kb/v1/collections');
}

/** While a collection is re-indexed or given vectors in the background, its line is refreshed. */
export const COLLECTIONS_POLL_MS = 5000;

export function getCollectionsQueryOptions() {
  return queryOptions({
    queryKey: ['knowledge', 'collections'],
    queryFn: getCollections,
    refetchInterval: (query) => (query.state.data?.some((c) => c.reindexing || c.vectors_backfilling) ? COLLECTIONS_POLL_MS : false),
  });
}

export function useCollections() {
  return useQuery(getCollectionsQueryOptions());
}
