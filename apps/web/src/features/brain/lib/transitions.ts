// The state transitions of spec 3 §4, as pure functions of the Brain form: mode switches,
// engine choices, LLM base URL and STT/TTS provider changes. Components call these and write the
// result into the form; tests check them without a browser.
import { AvatarEngine, SpeechVoiceProvider, SttProvider, type SetupMode } from '@parla/shared/enums';
import { DEFAULT_SPOKEN_LANGUAGE, isSpokenLanguage } from '@parla/shared/languages';
import { llmProviderForUrl, type BrainCatalogue } from '@parla/shared/provider-urls';
import {
  DEFAULT_LLM_PROVIDER,
  DEFAULT_TTS_VOICES,
  engineForMode,
  enginesWithOwnSpeech,
  sttProviderInfo,
  ttsProviderInfo,
} from '@parla/shared/providers';
import type { AgentStatus } from '@parla/shared/schemas/brain';
import {
  isCustomLlm,
  isMaskedSecret,
  usesLlmForm,
  type BrainForm,
  type LlmDetails,
  type SttDetails,
  type ThirdPartyAgentDetails,
  type TtsDetails,
} from '@parla/shared/schemas/brain-forms';
import { pipelineToForms, type AvatarEngineFields } from '@parla/shared/schemas/brain-pipeline';
import { CUSTOM_LLM_PROVIDER } from '@parla/shared/schemas/custom-llm';

type Catalogue = Pick<BrainCatalogue, 'llmProviders' | 'singleModeModelsList'>;

/** What the avatar was last saved with. */
export interface SavedBrain {
  setupMode: SetupMode;
  nlpEngine: number;
  realtime: boolean;
  pipeline: unknown;
  /** The avatar's REST and Dialogflow fields as saved. */
  fields?: AvatarEngineFields;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Interaction type is offered only in Composite mode, without the realtime flag, on OpenAI. */
export function interactionTypeSelectable(
  f: Pick<BrainForm, 'setupMode' | 'realtime' | 'llmDetails'>,
  c: Pick<BrainCatalogue, 'llmProviders'>,
): boolean {
  return f.setupMode === 'Composite' && !f.realtime && llmProviderForUrl(c, f.llmDetails.url)?.id === 'openai';
}

/** Changing the base URL clears model, key, interaction type (back to prompt) and assistant,
 *  and takes the provider from the URL. */
export function changeBaseUrl(llm: LlmDetails, url: string, c: Pick<BrainCatalogue, 'llmProviders'>): LlmDetails {
  return {
    ...llm,
    url,
    llmProvider: llmProviderForUrl(c, url)?.id ?? '',
    llmModel: '',
    llmAPIKey: '',
    interactionType: 'prompt',
    llmAssistantId: '',
  };
}

/** Choosing "Custom (OpenAI-compatible)": an empty base URL of its own, and like any change of
 *  base URL no model, key, assistant, and the prompt interaction type. */
export function chooseCustomBaseUrl(llm: LlmDetails): LlmDetails {
  return { ...llm, url: '', llmProvider: CUSTOM_LLM_PROVIDER, llmModel: '', llmAPIKey: '', interactionType: 'prompt', llmAssistantId: '' };
}

/** Typing the custom base URL: the model list belongs to the old address, so the model goes; a
 *  stored key (masked) is bound to the saved address and goes too; a typed key stays. */
export function changeCustomBaseUrl(llm: LlmDetails, url: string): LlmDetails {
  return {
    ...llm,
    url,
    llmModel: '',
    llmAPIKey: isMaskedSecret(llm.llmAPIKey) ? '' : llm.llmAPIKey,
    interactionType: 'prompt',
    llmAssistantId: '',
  };
}

/** Rules that hold in a mode whatever the user did: Simple forces Groq and its first model,
 *  and the product's own speech; the interaction type falls back to prompt where not offered. */
export function applyModeRules(f: BrainForm, c: Catalogue): BrainForm {
  const out = clone(f);
  if (out.setupMode === 'Simple') {
    // The product's own speech: a spoken language of the product and one of its voices.
    if (out.sttDetails.sttProvider !== SttProvider.Default) out.sttDetails = changeSttProvider(out.sttDetails, SttProvider.Default);
    if (out.ttsDetails.ttsProvider !== SpeechVoiceProvider.Default)
      out.ttsDetails = { ...changeTtsProvider(out.ttsDetails, SpeechVoiceProvider.Default), ttsVoice: DEFAULT_TTS_VOICES[0]!.id };
    if (usesLlmForm(out.nlpEngine)) {
      const groq = c.llmProviders.find((p) => p.id === DEFAULT_LLM_PROVIDER)!;
      out.llmDetails.url = groq.baseUrl;
      out.llmDetails.llmProvider = groq.id;
      if (!c.singleModeModelsList.includes(out.llmDetails.llmModel)) out.llmDetails.llmModel = c.singleModeModelsList[0] ?? '';
    }
  }
  // A custom base URL is offered in Composite mode for the LLM engine only: elsewhere, Groq.
  if (isCustomLlm(out.llmDetails) && (out.setupMode !== 'Composite' || out.nlpEngine !== AvatarEngine.LargeLanguageModel)) {
    out.llmDetails = changeBaseUrl(out.llmDetails, c.llmProviders.find((p) => p.id === DEFAULT_LLM_PROVIDER)!.baseUrl, c);
  }
  if (!interactionTypeSelectable(out, c)) {
    out.llmDetails.interactionType = 'prompt';
  }
  return out;
}

/** Choosing an engine: LLM starts on the Groq base URL; TEN, realtime and ElevenLabs (which
 *  listen and speak themselves) set speech-to-text and text-to-speech to None. */
export function chooseEngine(f: BrainForm, engine: number, c: Catalogue): BrainForm {
  let out = clone(f);
  out.nlpEngine = engine;
  if (usesLlmForm(engine)) {
    const groq = c.llmProviders.find((p) => p.id === DEFAULT_LLM_PROVIDER)!;
    if (out.llmDetails.url !== groq.baseUrl) out.llmDetails = changeBaseUrl(out.llmDetails, groq.baseUrl, c);
    out.llmDetails.llmProvider = groq.id;
  }
  if (enginesWithOwnSpeech().includes(engine as AvatarEngine)) {
    out.sttDetails.sttProvider = SttProvider.None;
    out.ttsDetails.ttsProvider = SpeechVoiceProvider.None;
  }
  out = applyModeRules(out, c);
  return out;
}

/** Switching mode puts back the saved STT, TTS and LLM details, clears the model when the mode
 *  differs from the saved one, and keeps the engine only if the new mode offers it. */
export function switchMode(f: BrainForm, next: SetupMode, saved: SavedBrain, c: Catalogue): BrainForm {
  const restored = pipelineToForms(
    saved.pipeline,
    { ...saved.fields, setupMode: saved.setupMode, nlpEngine: saved.nlpEngine, realtime: saved.realtime },
    c,
  );
  let out: BrainForm = {
    ...clone(f),
    setupMode: next,
    sttDetails: restored.sttDetails,
    ttsDetails: restored.ttsDetails,
    llmDetails: restored.llmDetails,
  };
  if (next !== saved.setupMode) out.llmDetails.llmModel = '';
  // Back to the saved mode: the saved engine too, so the saved details make sense again.
  const current = next === saved.setupMode ? saved.nlpEngine : out.nlpEngine;
  const engine = engineForMode(next, current);
  if (engine === saved.nlpEngine && next === saved.setupMode) out = applyModeRules({ ...out, nlpEngine: engine }, c);
  else out = engine !== out.nlpEngine || enginesWithOwnSpeech().includes(engine) ? chooseEngine(out, engine, c) : applyModeRules(out, c);
  return out;
}

/** A new STT provider starts clean: no key, file, region, phrases or model; Deepgram on
 *  nova-3-general and multi, Google on long, global and en-US. */
export function changeSttProvider(d: SttDetails, provider: SttProvider): SttDetails {
  const info = sttProviderInfo(provider);
  const defaults = info?.defaults;
  return {
    ...d,
    sttProvider: provider,
    sttAPIKey: '',
    sttAPIKeyFileName: '',
    sttAPIKeyType: info?.keyType ?? 'none',
    sttRegion: defaults?.region ?? '',
    sttContextPhrases: '',
    sttModel: defaults?.model ?? '',
    sttLanguage:
      provider === SttProvider.Deepgram || provider === SttProvider.Google
        ? defaults!.language
        : isSpokenLanguage(d.sttLanguage)
          ? d.sttLanguage
          : DEFAULT_SPOKEN_LANGUAGE,
    sttAdditionalLanguages:
      provider === SttProvider.Deepgram || provider === SttProvider.Google
        ? d.sttAdditionalLanguages
        : d.sttAdditionalLanguages.filter(isSpokenLanguage),
    deepgramEndpoint: '',
  };
}

/** A new TTS provider starts clean: no keys, region, voice or model; speed 1 for Neuphonic, 0 for the others. */
export function changeTtsProvider(d: TtsDetails, provider: SpeechVoiceProvider): TtsDetails {
  return {
    ...d,
    ttsProvider: provider,
    pollyAccessKey: '',
    pollySecretKey: '',
    azureSubscriptionKey: '',
    elevenLabsAPIKey: '',
    cartesiaAPIKey: '',
    ttsRegion: '',
    ttsModel: '',
    ttsVoice: '',
    ttsSpeechSpeed: ttsProviderInfo(provider)?.speed?.initial ?? 0,
    neuphonic: { api_key: '', lang_code: '' },
  };
}

/** A public agent works without a key, so the key is cleared. */
export function applyAgentStatus(d: ThirdPartyAgentDetails, status: AgentStatus): ThirdPartyAgentDetails {
  return { ...d, status, api_key: status === 'public' ? '' : d.api_key };
}
