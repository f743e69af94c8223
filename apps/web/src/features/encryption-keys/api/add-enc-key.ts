import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddEncKeyResponse } from '@parla/shared/schemas/encryption-keys';
import { apiRequest } from '../../../lib/api-client';

export function addEncKey(name: string): Promise<AddEncKeyResponse> {
  return apiRequest('/api/enc/add', { body: { id: null, name } });
}

export function useAddEncKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addEncKey,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['encryption-keys'] });
    },
  });
}
