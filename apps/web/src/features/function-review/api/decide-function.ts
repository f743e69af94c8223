import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FunctionDecisionRequest } from '@parla/shared/schemas/functions';
import { apiRequest } from '../../../lib/api-client';

export function decideFunction(input: FunctionDecisionRequest): Promise<{ status: 'OK' }> {
  return apiRequest('/api/admin/function_decision', { body: input });
}

export function useDecideFunction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: decideFunction,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['function-review'] });
    },
  });
}
