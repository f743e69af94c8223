import { useMutation } from '@tanstack/react-query';
import type { Avatar } from '@parla/shared/schemas/avatar';
import type { RegenerateAvatarTokenResponse } from '@parla/shared/schemas/avatar-access';
import { apiRequest } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';

/** A new link token for the avatar; the old access link stops working (decision 207). */
export function regenerateAvatarToken(agentId: string): Promise<RegenerateAvatarTokenResponse> {
  return apiRequest<RegenerateAvatarTokenResponse>('/api/avatar/regenerate_token', { body: { agentId } });
}

export function useRegenerateAvatarToken(onSuccess?: (res: RegenerateAvatarTokenResponse) => void) {
  return useMutation({
    mutationFn: regenerateAvatarToken,
    onSuccess: async (res) => {
      queryClient.setQueryData<{ agents: Avatar[] }>(['avatars'], (old) =>
        old ? { agents: old.agents.map((a) => (a.id === res.agentId ? { ...a, token: res.token } : a)) } : old,
      );
      await queryClient.invalidateQueries({ queryKey: ['avatars'] });
      onSuccess?.(res);
    },
  });
}
