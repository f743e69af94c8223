import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function deleteEncKey(id: string): Promise<{ status: 'OK' }> {
  return apiRequest('/api/enc/del', { body: { id, mode: 'delete' } });
}

export function useDeleteEncKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteEncKey,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['encryption-keys'] });
    },
  });
}
