// Which built-in voice the editor's preview speaks with (issue 36 item 6): the one visitors will
// hear, by the server's rule (runtime/speech-config.ts, the Brain tab's default-voices.ts): Simple
// mode and a "Default" voice in Composite mode speak English with the voice picked, else the one
// fitting the face; another language, a TTS provider (the preview does not spend the customer's
// key), a speech server's own voice or the realtime and third-party modes: none (the browser's).
import { embeddedVoiceFor, isEmbeddedVoiceId, speaksEmbedded, type EmbeddedVoiceId } from '@parla/shared/embedded-voices';
import type { BrainCatalogue } from '@parla/shared/provider-urls';

export interface PreviewVoiceDraft {
  setupMode: string | undefined;
  /** The draft's pipeline TTS block (`provider`, `voice_id`). */
  tts: { provider?: unknown; voice_id?: unknown } | undefined;
  /** The draft's first spoken language. */
  language: string | undefined;
}

export function previewVoice(
  c: Pick<BrainCatalogue, 'embeddedVoice' | 'serverSpeech'> | undefined,
  draft: PreviewVoiceDraft,
  gender: string | undefined,
): EmbeddedVoiceId | null {
  if (!c?.embeddedVoice) return null;
  const language = draft.language || 'en-US';
  if (!speaksEmbedded(language)) return null;
  const mode = draft.setupMode ?? 'Simple';
  const provider = typeof draft.tts?.provider === 'string' ? draft.tts.provider : 'default';
  if (mode !== 'Simple' && !(mode === 'Composite' && provider === 'default')) return null;
  const picked = typeof draft.tts?.voice_id === 'string' ? draft.tts.voice_id : '';
  if (isEmbeddedVoiceId(picked)) return picked;
  return c.serverSpeech ? null : embeddedVoiceFor(gender, language);
}
