// The brain's provider stand-ins (OpenAI-compatible /models and assistants, Gemini models,
// Deepgram, Azure voices, Polly DescribeVoices, ElevenLabs voices and agent tokens, Cartesia,
// Neuphonic) on a fixed port, with PROVIDER_URL_OVERRIDES pointing the real hosts at them.
import { startProviderStandIns } from '../../../apps/server/test/stand-ins/providers';
import { STAND_IN_BASE_PORT } from '../ports';
import type { StandIns } from '../stand-ins';

export const BRAIN_PROVIDERS_PORT = STAND_IN_BASE_PORT + 1;

export async function startBrainProviders(): Promise<StandIns> {
  const s = await startProviderStandIns(BRAIN_PROVIDERS_PORT);
  return { allow: [s.allow], env: { PROVIDER_URL_OVERRIDES: s.overrides }, close: s.close };
}
