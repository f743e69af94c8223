import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KnowledgeItem } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

export function retryItem(id: string): Promise<KnowledgeItem> {
  return kbRequest(`/kb/v1/items/${encodeURIComponent(id)}/retry`, { method: 'POST' });
}

export function useRetryItem() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (item: KnowledgeItem) => retryItem(item.id),
    onSuccess: (_res, item) => qc.invalidateQueries({ queryKey: ['knowledge', 'items', item.collection_id] }),
  });
}
