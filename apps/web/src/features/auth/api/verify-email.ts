import { useMutation } from '@tanstack/react-query';
import type { EmailVerificationResponse } from '@parla/shared/schemas/auth';
import { ApiError, apiRequest } from '../../../lib/api-client';

export type VerifyEmailResult = EmailVerificationResponse & { failReason?: string };

/** The server's answer is shown whether it is a success or a failure (spec 4 §2); a wrong
 *  password keeps the form open (decision 011). */
export async function verifyEmail(verificationCode: string, password: string): Promise<VerifyEmailResult> {
  try {
    return await apiRequest<EmailVerificationResponse>('/api/email_verification', {
      body: { verificationCode, mode: 'verify', password },
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
      ...(err instanceof ApiError && err.failReason ? { failReason: err.failReason } : {}),
    };
  }
}

export function useVerifyEmail(code: string) {
  return useMutation({ mutationFn: (password: string) => verifyEmail(code, password) });
}
