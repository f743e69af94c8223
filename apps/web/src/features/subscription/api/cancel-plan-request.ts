import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function cancelPlanRequest(): Promise<{ status: 'OK' }> {
  return apiRequest('/api/account_upgrade/cancel', { body: {} });
}

/** Withdraws the pending plan request (issue 17); account info is refreshed afterwards. */
export function useCancelPlanRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelPlanRequest,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['account'] });
    },
  });
}
