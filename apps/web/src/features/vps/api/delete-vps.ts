import { useMutation, useQueryClient } from '@tanstack/react-query';
import { VPS_DELETE_CAUSES } from '@parla/shared/errors';
import { ApiError, apiRequest } from '../../../lib/api-client';

export async function deleteVps(vpsId: string): Promise<{ status: 'OK'; vpsId: string }> {
  try {
    return await apiRequest('/api/del_vps', { body: { vpsId, mode: 'delete' } });
  } catch (err) {
    // Spec 1 §8: a failure names its cause; anything unexpected is a server error.
    if (err instanceof ApiError && (err.status >= 500 || err.status === 0)) {
      throw new ApiError(err.code, err.status, [VPS_DELETE_CAUSES.serverError]);
    }
    throw err;
  }
}

export function useDeleteVps() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteVps,
    onSettled: () => qc.invalidateQueries({ queryKey: ['vps'] }),
  });
}
