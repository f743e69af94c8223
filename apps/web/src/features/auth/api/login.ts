import { useMutation } from '@tanstack/react-query';
import type { LoginRequest, LoginResponse } from '@parla/shared/schemas/auth';
import { apiRequest } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-session';
import { queryClient } from '../../../lib/query-client';

export function login(body: LoginRequest): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('/api/login', { body, auth: 'app' });
}

/** Signs in and keeps the session where Remember me says (admin-proxy: nowhere). */
export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (res, vars) => {
      queryClient.clear();
      authStore.signIn(res, { rememberMe: Boolean(vars.rememberMe) });
    },
  });
}
