import { useQuery } from '@tanstack/react-query';
import type { EmailVerificationResponse } from '@parla/shared/schemas/auth';
import { ApiError, apiRequest } from '../../../lib/api-client';

/** The server's answer is shown whether it is a success or a failure (spec 4 §2). */
export async function verifyEmail(verificationCode: string): Promise<EmailVerificationResponse> {
  try {
    return await apiRequest<EmailVerificationResponse>('/api/email_verification', {
      body: { verificationCode, mode: 'verify' },
      auth: 'app',
    });
  } catch (err) {
    const body = err instanceof ApiError ? (err.body as Partial<EmailVerificationResponse> | undefined) : undefined;
    return {
      status: 'ERROR',
      email: body?.email ?? '',
      firstName: body?.firstName ?? '',
      displayTitle: body?.displayTitle ?? 'Verification failed',
      displayMessage: body?.displayMessage ?? (err instanceof ApiError ? err.message : 'Verification failed.'),
      errors: err instanceof ApiError ? err.errors : [],
    };
  }
}

export function useVerifyEmail(code: string) {
  return useQuery({
    queryKey: ['email-verification', code],
    queryFn: () => verifyEmail(code),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
