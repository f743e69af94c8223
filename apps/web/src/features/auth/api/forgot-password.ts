import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function forgotPassword(email: string): Promise<{ status: 'OK' }> {
  return apiRequest('/api/forgot_password', { body: { email }, auth: 'app' });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
