// POST /api/tts/preview: a reply of the editor's preview said in a built-in voice.
import type { PreviewSpeech, PreviewSpeechRequest } from '@parla/shared/embedded-voices';
import { apiRequest } from '../../../lib/api-client';

export function previewSpeech(body: PreviewSpeechRequest): Promise<PreviewSpeech> {
  return apiRequest<PreviewSpeech>('/api/tts/preview', { body, timeoutMs: 15_000 });
}
