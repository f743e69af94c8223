import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveOauthAppRequest, SaveOauthAppResponse } from '@parla/shared/schemas/oauth';
import { apiRequest } from '../../../lib/api-client';

/** Creates (no appId) or updates (appId) a config: one endpoint for both (spec 1 §7). */
export function saveOauthApp(body: SaveOauthAppRequest): Promise<SaveOauthAppResponse> {
  return apiRequest<SaveOauthAppResponse>('/api/add_oauthapp', { body });
}

export function useSaveOauthApp({ onSuccess }: { onSuccess?: (res: SaveOauthAppResponse) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveOauthApp,
    onSuccess: async (res) => {
      await queryClient.invalidateQueries({ queryKey: ['oauth-configs'] });
      onSuccess?.(res);
    },
  });
}
