import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { KnowledgeItem, KnowledgeItemDetail } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

export function getItemDetail(id: string): Promise<KnowledgeItemDetail> {
  return kbRequest(`/kb/v1/items/${encodeURIComponent(id)}/chunks`);
}

export function useItemDetail(id: string | null) {
  return useQuery({ queryKey: ['knowledge', 'item', id], queryFn: () => getItemDetail(id!), enabled: id !== null });
}

export function resyncItem(id: string): Promise<KnowledgeItem> {
  return kbRequest(`/kb/v1/items/${encodeURIComponent(id)}/resync`, { method: 'POST' });
}

export function useResyncItem() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (item: KnowledgeItem) => resyncItem(item.id),
    onSuccess: (_res, item) => {
      void qc.invalidateQueries({ queryKey: ['knowledge', 'items', item.collection_id] });
      void qc.invalidateQueries({ queryKey: ['knowledge', 'item', item.id] });
    },
  });
}
