// Deepgram through the proxy: the key is checked with GET /auth/token (a failure is
// 'Invalid API Key'), then GET /models gives the streaming models and their languages.
import { useQuery } from '@tanstack/react-query';
import { BRAIN_MESSAGES } from '@parla/shared/schemas/brain';
import { isMaskedSecret } from '@parla/shared/schemas/brain-forms';
import { proxyRequest } from './proxy-request';

export interface DeepgramModel {
  canonical_name: string;
  languages: string[];
}

export class InvalidSttKey extends Error {
  constructor() {
    super(BRAIN_MESSAGES.sttKeyInvalid);
  }
}

export async function getDeepgramModels(
  base: string,
  key: string,
  avatarId: string | undefined,
  signal?: AbortSignal,
): Promise<DeepgramModel[]> {
  const auth = {
    url: '',
    headers: { Authorization: `Token ${key}` },
    ...(isMaskedSecret(key) ? { avatarId, secretRef: 'stt' as const } : {}),
  };
  const token = await proxyRequest({ ...auth, url: `${base}/auth/token` }, signal);
  if (token.httpStatus !== 200) throw new InvalidSttKey();
  const res = await proxyRequest({ ...auth, url: `${base}/models` }, signal);
  const stt = (res.data as { stt?: { canonical_name?: string; languages?: string[]; streaming?: boolean }[] } | null)?.stt ?? [];
  return stt
    .filter((m) => m.canonical_name && m.streaming !== false)
    .map((m) => ({ canonical_name: m.canonical_name!, languages: m.languages ?? [] }));
}

export function useDeepgramModels(base: string | undefined, key: string, avatarId: string | undefined) {
  return useQuery({
    queryKey: ['brain', 'deepgram-models', base, key, avatarId],
    queryFn: ({ signal }) => getDeepgramModels(base!, key, avatarId, signal),
    enabled: Boolean(base && key),
    retry: false,
    staleTime: 5 * 60_000,
  });
}
