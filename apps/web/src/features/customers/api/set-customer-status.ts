import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomerStatusRequest } from '@parla/shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';

export function setCustomerStatus(body: CustomerStatusRequest): Promise<{ status: 'OK' }> {
  return apiRequest('/api/admin/customer_status', { body });
}

export function useSetCustomerStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setCustomerStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers'] }),
  });
}
