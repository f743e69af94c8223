import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function deleteOauthApp(appId: number): Promise<{ status: 'OK'; appId: number }> {
  return apiRequest('/api/del_oauthapp', { body: { appId, mode: 'delete' } });
}

export function useDeleteOauthApp({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOauthApp,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['oauth-configs'] });
      onSuccess?.();
    },
  });
}
