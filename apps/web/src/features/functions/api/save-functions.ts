// Create, update or delete through the one functions endpoint (spec 4 §7); the list is
// refreshed afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FunctionAction, FunctionRecord } from '@parla/shared/schemas/functions';
import { apiRequest } from '../../../lib/api-client';

export function saveFunctions(functions: FunctionAction[]): Promise<{ status: 'OK'; functions: FunctionRecord[] }> {
  return apiRequest('/api/functions', { body: { functions } });
}

export function useSaveFunction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (action: FunctionAction) => saveFunctions([action]),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['functions'] });
    },
  });
}
