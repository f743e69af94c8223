// Setup modes and the engines each offers (spec 3 §2), and the enable rules of the Brain tab's
// sub-tabs (spec 2 §2).
import { AvatarEngine, AVATAR_ENGINE_NAMES, PRODUCT_NAME, type SetupMode } from '@parla/shared/enums';

export const MODES: { value: SetupMode; label: string; meaning: string; engines: AvatarEngine[] }[] = [
  {
    value: 'Simple',
    label: 'Simple',
    meaning: `${PRODUCT_NAME}'s own speech-to-text, language model and text-to-speech.`,
    engines: [AvatarEngine.EchoTest, AvatarEngine.LargeLanguageModel, AvatarEngine.RestEndpoint],
  },
  {
    value: 'Composite',
    label: 'Composite (cascading)',
    meaning: 'Any speech-to-text, language model and text-to-speech.',
    engines: [AvatarEngine.EchoTest, AvatarEngine.LargeLanguageModel, AvatarEngine.RestEndpoint, AvatarEngine.DialogflowCX, AvatarEngine.DialogflowES],
  },
  {
    value: 'SpeechToSpeech',
    label: 'Speech to Speech',
    meaning: 'Multimodal models that listen and speak themselves.',
    engines: [AvatarEngine.ParlaRealtime],
  },
  {
    value: 'None',
    label: '3rd Party AI',
    meaning: 'Third-party conversational AI frameworks.',
    engines: [AvatarEngine.Ten, AvatarEngine.ElevenLabsConversationAI, AvatarEngine.CUSTOM_STT_LLM_TTS],
  },
];

export function enginesFor(mode: SetupMode | undefined): AvatarEngine[] {
  return (MODES.find((m) => m.value === mode) ?? MODES[0]!).engines;
}

export function engineLabel(engine: number): string {
  return (AVATAR_ENGINE_NAMES as Record<number, string>)[engine] ?? String(engine);
}

/** Knowledge Base: the realtime or large-language-model engines only. */
export function knowledgeEnabled(engine: number | undefined): boolean {
  return engine === AvatarEngine.ParlaRealtime || engine === AvatarEngine.LargeLanguageModel;
}

/** Functions: as Knowledge Base, and the avatar has the realtime flag. */
export function functionsEnabled(engine: number | undefined, realtime: boolean | undefined): boolean {
  return knowledgeEnabled(engine) && Boolean(realtime);
}
