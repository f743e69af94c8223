// The product's own speech for the voice specs (playwright.voice.config.ts sets
// E2E_SERVER_SPEECH=1): the OpenAI audio API stand-in, and SPEECH_BASE_URL pointing at it, so
// Simple and Default avatars listen and speak through the server (issue 14). Other specs keep
// the browser's speech. GET/POST {SPEECH_STAND_IN}/_stand-in/... lets a spec read what it heard
// and set what it "recognises" next.
import { SPEECH_STAND_IN_KEY, startOpenAiAudioStandIn } from '../../../apps/server/test/stand-ins/runtime/openai-audio';
import { STAND_IN_BASE_PORT } from '../ports';
import type { StandIns } from '../stand-ins';

export const SPEECH_STAND_IN_PORT = STAND_IN_BASE_PORT + 5;
export const SPEECH_STAND_IN = `http://127.0.0.1:${SPEECH_STAND_IN_PORT}`;

export async function startSpeechStandIn(): Promise<StandIns> {
  const speech = await startOpenAiAudioStandIn(SPEECH_STAND_IN_PORT);
  // Fixed delays the bench subtracts (bench/voice-browser.ts).
  speech.sttDelayMs = Number(process.env.E2E_SPEECH_STT_DELAY_MS ?? 0);
  speech.ttsDelayMs = Number(process.env.E2E_SPEECH_TTS_DELAY_MS ?? 0);
  return {
    allow: [`127.0.0.1:${SPEECH_STAND_IN_PORT}`],
    env: { SPEECH_BASE_URL: `${SPEECH_STAND_IN}/v1`, SPEECH_API_KEY: SPEECH_STAND_IN_KEY },
    close: speech.close,
  };
}
