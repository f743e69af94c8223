// The server speech an engine configuration carries (decision 612): the pipeline's own STT and
// TTS, a Composite brain's `speech`, none for realtime engines (their provider speaks). The echo
// an avatar falls back to after its daily limit keeps this speech.
import type { EngineConfig, SpeechConfig } from '../types';

export function speechOf(config: EngineConfig): SpeechConfig | null {
  if (config.kind === 'pipeline') return { stt: config.stt, tts: config.tts, turn: config.turn };
  if (config.kind === 'realtime') return null;
  return config.speech ?? null;
}
