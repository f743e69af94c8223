import { useMutation } from '@tanstack/react-query';
import type { RegisterRequest } from '@parla/shared/schemas/auth';
import { apiRequest } from '../../../lib/api-client';

export function register(body: RegisterRequest): Promise<{ status: 'OK' }> {
  return apiRequest('/api/register', { body, auth: 'app' });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
