import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KnowledgeItem } from '@parla/shared/schemas/knowledge';
import { kbRequest } from './kb-request';

export function deleteItem(id: string): Promise<{ status: 'OK' }> {
  return kbRequest(`/kb/v1/items/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteItem() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (item: KnowledgeItem) => deleteItem(item.id),
    onSuccess: async (_res, item) => {
      await qc.invalidateQueries({ queryKey: ['knowledge', 'items', item.collection_id] });
      await qc.invalidateQueries({ queryKey: ['knowledge', 'collections'] });
    },
  });
}
