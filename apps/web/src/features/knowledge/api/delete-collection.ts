import { useMutation, useQueryClient } from '@tanstack/react-query';
import { kbRequest } from './kb-request';

export function deleteCollection(id: string): Promise<{ status: 'OK' }> {
  return kbRequest(`/kb/v1/collections/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteCollection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteCollection,
    onSuccess: async (_res, id) => {
      qc.removeQueries({ queryKey: ['knowledge', 'items', id] });
      await qc.invalidateQueries({ queryKey: ['knowledge', 'collections'] });
    },
  });
}
