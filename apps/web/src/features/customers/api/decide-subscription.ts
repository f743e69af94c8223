import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SubscriptionDecisionRequest } from '@parla/shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';

export function decideSubscription(body: SubscriptionDecisionRequest): Promise<{ status: 'OK' }> {
  return apiRequest('/api/admin/subscription_decision', { body });
}

export function useDecideSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers'] }),
  });
}
