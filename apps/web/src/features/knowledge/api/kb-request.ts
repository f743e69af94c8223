// Requests to the knowledge API: bearer JWT from /api/token/jwt (15 minutes, bound to the
// session), cached and renewed a minute before it expires; a 401 from the knowledge API (token
// expired or revoked) renews once and retries. A dead session makes /api/token/jwt answer 401,
// which signs the user out like any other call.
import { apiRequest, ApiError, type RequestOptions } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-session';

const RENEW_BEFORE_MS = 60_000;
let cached: { jwt: string; expiresAt: number; session: string } | null = null;
let pending: Promise<string> | null = null;

function expiryOf(jwt: string): number {
  try {
    const payload = JSON.parse(atob(jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: number };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
  } catch {
    return 0;
  }
}

export async function getKbJwt(force = false): Promise<string> {
  const session = authStore.get()?.authToken ?? '';
  if (!force && cached && cached.session === session && cached.expiresAt - RENEW_BEFORE_MS > Date.now()) return cached.jwt;
  if (!pending) {
    pending = apiRequest<{ jwtToken: string }>('/api/token/jwt')
      .then(({ jwtToken }) => {
        cached = { jwt: jwtToken, expiresAt: expiryOf(jwtToken), session };
        return jwtToken;
      })
      .finally(() => {
        pending = null;
      });
  }
  return pending;
}

export async function kbRequest<T>(path: string, opts: Omit<RequestOptions, 'auth'> = {}): Promise<T> {
  const jwt = await getKbJwt();
  try {
    return await apiRequest<T>(path, { ...opts, auth: { bearer: jwt } });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    return apiRequest<T>(path, { ...opts, auth: { bearer: await getKbJwt(true) } });
  }
}
