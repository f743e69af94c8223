// Reads an avatar's config JSON or client JSON from where it is hosted: the provider's
// config-files path (with the session), or the customer's own server (a plain request; shown
// read-only in the Embed tab).
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export async function getConfigFile(url: string, selfHosted: boolean, updated: string): Promise<unknown> {
  if (!selfHosted) {
    const u = new URL(url, window.location.origin);
    return apiRequest<unknown>(`${u.pathname}?updated=${encodeURIComponent(updated)}`);
  }
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000), credentials: 'omit' });
  if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
  return (await res.json()) as unknown;
}

export function useConfigFile(url: string | null, selfHosted: boolean, updated: string) {
  return useQuery({
    queryKey: ['avatars', 'config-file', url, updated],
    queryFn: () => getConfigFile(url!, selfHosted, updated),
    enabled: Boolean(url),
    retry: false,
  });
}
