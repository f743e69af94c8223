// POST /api/tts/list_voices (spec 3 §7) with the keys of the form; Neuphonic through the proxy.
import { useQuery } from '@tanstack/react-query';
import type { VoiceEntry } from '@parla/shared/providers';
import type { TtsListVoicesRequest } from '@parla/shared/schemas/brain';
import { isMaskedSecret } from '@parla/shared/schemas/brain-forms';
import { apiRequest } from '../../../lib/api-client';
import { proxyRequest } from './proxy-request';

export interface TtsVoicesAnswer {
  ttsProvider: number;
  ttsVoices: VoiceEntry[];
}

export function listTtsVoices(body: TtsListVoicesRequest, signal?: AbortSignal): Promise<TtsVoicesAnswer> {
  return apiRequest<TtsVoicesAnswer>('/api/tts/list_voices', { body, signal });
}

export async function listNeuphonicVoices(
  base: string,
  key: string,
  avatarId: string | undefined,
  signal?: AbortSignal,
): Promise<VoiceEntry[]> {
  const res = await proxyRequest(
    { url: `${base}/voices`, headers: { 'X-API-KEY': key }, ...(isMaskedSecret(key) ? { avatarId, secretRef: 'tts' as const } : {}) },
    signal,
  );
  if (res.httpStatus !== 200) throw new Error('voices');
  const voices =
    (res.data as { data?: { voices?: { voice_id?: string; name?: string; voice_name?: string; lang_code?: string }[] } } | null)?.data
      ?.voices ?? [];
  return voices
    .filter((v) => v.voice_id)
    .map((v) => ({
      id: v.voice_id!,
      name: v.name ?? v.voice_name ?? v.voice_id!,
      languageCode: v.lang_code ?? '',
      languageName: v.lang_code ?? '',
      gender: '',
      supportedEngines: [],
      custom: false,
    }));
}

/** `request` null: not enough to ask yet (no key, no region). */
export function useTtsVoices(
  request: TtsListVoicesRequest | null,
  neuphonic: { base: string; key: string } | null,
  avatarId: string | undefined,
) {
  return useQuery({
    queryKey: ['brain', 'tts-voices', request, neuphonic, avatarId],
    queryFn: ({ signal }) =>
      neuphonic
        ? listNeuphonicVoices(neuphonic.base, neuphonic.key, avatarId, signal)
        : listTtsVoices({ ...request!, avatarId }, signal).then((r) => r.ttsVoices),
    enabled: Boolean(request || neuphonic),
    retry: false,
    staleTime: 5 * 60_000,
  });
}
