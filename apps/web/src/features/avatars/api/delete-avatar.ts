import { useMutation } from '@tanstack/react-query';
import type { DeleteAvatarResponse } from '@parla/shared/schemas/avatar';
import { apiRequest } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';

export function deleteAvatar(agentId: string): Promise<DeleteAvatarResponse> {
  return apiRequest<DeleteAvatarResponse>('/api/avatar/del', { body: { agentId, mode: 'delete' } });
}

export function useDeleteAvatar() {
  return useMutation({
    mutationFn: deleteAvatar,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['avatars'] });
      await queryClient.invalidateQueries({ queryKey: ['account', 'info'] });
    },
  });
}
