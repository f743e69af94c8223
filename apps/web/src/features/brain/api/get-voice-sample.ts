// GET /api/tts/embedded_sample/:voice: a sentence in a voice shipped with the server (WAV), for
// the Brain tab's "Play sample" (issue 35). Fetched with the session, played from a blob URL.
import type { EmbeddedVoiceId } from '@parla/shared/embedded-voices';
import { apiRequest } from '../../../lib/api-client';

/** The first synthesis of a voice may wait for a worker to start (a second or two). */
const SAMPLE_TIMEOUT_MS = 30_000;

export function getVoiceSample(voice: EmbeddedVoiceId, signal?: AbortSignal): Promise<Blob> {
  return apiRequest<Blob>(`/api/tts/embedded_sample/${voice}`, { blob: true, signal, timeoutMs: SAMPLE_TIMEOUT_MS });
}
