import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function dismissGap(avatarId: string, gapId: string): Promise<unknown> {
  return apiRequest(`/api/avatars/${encodeURIComponent(avatarId)}/knowledge-gaps/${encodeURIComponent(gapId)}/dismiss`, { method: 'POST' });
}

export function useDismissGap(avatarId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (gapId: string) => dismissGap(avatarId, gapId),
    onSuccess: () => client.invalidateQueries({ queryKey: ['knowledge-gaps', avatarId] }),
  });
}
