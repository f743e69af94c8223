import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export function validateResetToken(resetToken: string): Promise<{ status: 'OK'; email: string }> {
  return apiRequest('/api/reset_password', { body: { resetToken, mode: 'validate' }, auth: 'app' });
}

export function useValidateResetToken(resetToken: string) {
  return useQuery({
    queryKey: ['reset-password', resetToken],
    queryFn: () => validateResetToken(resetToken),
    retry: false,
    staleTime: Infinity,
    enabled: resetToken.length > 0,
  });
}

export function resetPassword(resetToken: string, newPassword: string): Promise<{ status: 'OK'; email: string }> {
  return apiRequest('/api/reset_password', { body: { resetToken, newPassword, mode: 'reset' }, auth: 'app' });
}

export function useResetPassword(resetToken: string) {
  return useMutation({ mutationFn: (newPassword: string) => resetPassword(resetToken, newPassword) });
}
