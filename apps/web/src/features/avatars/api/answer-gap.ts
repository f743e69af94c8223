import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GapAnswerRequest } from '@parla/shared/schemas/insight';
import { apiRequest } from '../../../lib/api-client';

export function answerGap(avatarId: string, gapId: string, body: GapAnswerRequest): Promise<{ itemId: string }> {
  return apiRequest(`/api/avatars/${encodeURIComponent(avatarId)}/knowledge-gaps/${encodeURIComponent(gapId)}/answer`, {
    method: 'POST',
    body,
  });
}

export function useAnswerGap(avatarId: string, opts: { onSuccess?: () => void } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { gapId: string; body: GapAnswerRequest }) => answerGap(avatarId, v.gapId, v.body),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['knowledge-gaps', avatarId] });
      opts.onSuccess?.();
    },
  });
}
