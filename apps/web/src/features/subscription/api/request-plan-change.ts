import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountUpgradeRequest } from '@parla/shared/schemas/account';
import { apiRequest } from '../../../lib/api-client';

export function requestPlanChange(body: AccountUpgradeRequest): Promise<{ status: 'OK' }> {
  return apiRequest('/api/account_upgrade', { body: { dhType: 2, ...body } });
}

/** Asks for a plan change; account info is refreshed afterwards (spec 1 §4). */
export function useRequestPlanChange({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestPlanChange,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['account'] });
      onSuccess?.();
    },
  });
}
