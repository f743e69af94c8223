import { queryOptions, useQuery } from '@tanstack/react-query';
import type { KnowledgeCollection } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

export function getCollections(): Promise<KnowledgeCollection[]> {
  return kbRequest('/kb/v1/collections');
}

export function getCollectionsQueryOptions() {
  return queryOptions({ queryKey: ['knowledge', 'collections'], queryFn: getCollections });
}

export function useCollections() {
  return useQuery(getCollectionsQueryOptions());
}
