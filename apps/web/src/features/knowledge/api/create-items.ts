// One item (text, file) or many (URL rows, crawled pages): create-many reports per item.
import { useQueryClient } from '@tanstack/react-query';
import type { BatchItemResult, CreateItemRequest, KnowledgeItem } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

export function createItem(collectionId: string, item: CreateItemRequest): Promise<KnowledgeItem> {
  return kbRequest(`/kb/v1/collections/${encodeURIComponent(collectionId)}/items`, { method: 'POST', body: item });
}

export function createItems(collectionId: string, items: CreateItemRequest[]): Promise<BatchItemResult[]> {
  return kbRequest(`/kb/v1/collections/${encodeURIComponent(collectionId)}/items/batch`, {
    method: 'POST',
    body: { items },
    timeoutMs: 30_000,
  });
}

/** Refreshes a collection's items and the collection list (item counts). */
export function useRefreshItems() {
  const qc = useQueryClient();
  return (collectionId: string) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['knowledge', 'items', collectionId] }),
      qc.invalidateQueries({ queryKey: ['knowledge', 'collections'] }),
    ]);
}
