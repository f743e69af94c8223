import { apiRequest } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-session';
import { logger } from '../../../lib/logger';
import { queryClient } from '../../../lib/query-client';

/** Ends the session on the server; the local sign-out follows even when the call fails. */
export async function logout(): Promise<void> {
  try {
    if (authStore.get()) await apiRequest('/api/logout');
  } catch (err) {
    logger.warn('logout call failed; signing out locally', err);
  } finally {
    authStore.clear();
    queryClient.clear();
  }
}
