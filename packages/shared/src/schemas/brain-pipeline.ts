// Brain forms ↔ the saved pipeline (customData.agent_pipeline_config). formsToPipeline writes only
// the blocks the chosen engine uses (no stale keys of other engines stay behind); pipelineToForms
// reads a saved pipeline back, accepting older shapes, so the server validates a save with the
// very rules and messages the forms use.
import { AvatarEngine, SpeechVoiceProvider, SttProvider, type SetupMode } from '../enums';
import {
  DEFAULT_AVATAR_MEMORY,
  DEFAULT_STT_MODEL,
  DEFAULT_SYSTEM_PROMPT,
  DEFAULT_TTS_MODEL,
  LLM_MAX_TOKENS_DEFAULT,
} from '../brain-limits';
import { DEFAULT_AGENT_LANGUAGE, DEFAULT_SPOKEN_LANGUAGE } from '../languages';
import {
  DEFAULT_LLM_PROVIDER,
  DEFAULT_TTS_VOICES,
  LLM_PROVIDERS,
  SIMPLE_MODE_MODELS,
  sttProviderInfo,
  ttsProviderInfo,
  type LlmProviderId,
} from '../providers';
import { llmProviderForUrl, type BrainCatalogue } from '../provider-urls';
import type { AgentPipelineConfig, LlmBlock, SttBlock, TtsBlock } from './brain';
import { CUSTOM_LLM_PROVIDER, normaliseCustomBaseUrl } from './custom-llm';
import { toNumber, usesLlmForm, usesSpeechSections, type BrainForm, type SttDetails, type TtsDetails } from './brain-forms';

const s = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const nullIfEmpty = (v: string | null | undefined): string | null => (v && v.trim() ? v.trim() : null);

/** Polly lists each voice per engine; the option id joins them ('Joanna:neural'). */
export function pollyVoiceKey(voiceId: string, engine: string): string {
  return `${voiceId}:${engine}`;
}
export function splitPollyVoice(key: string): { voiceId: string; engine: string | null } {
  const i = key.lastIndexOf(':');
  return i > 0 ? { voiceId: key.slice(0, i), engine: key.slice(i + 1) } : { voiceId: key, engine: null };
}

// ---- defaults of a new form (spec 3 §3, §9) ----

export function defaultSttDetails(): SttDetails {
  return {
    sttProvider: SttProvider.Default,
    default_stt: DEFAULT_STT_MODEL,
    sttAPIKey: '',
    sttAPIKeyType: 'none',
    sttAPIKeyFileName: '',
    sttRegion: '',
    sttModel: '',
    sttLanguage: DEFAULT_SPOKEN_LANGUAGE,
    sttAdditionalLanguages: [],
    sttContextPhrases: '',
    deepgramEndpoint: '',
  };
}

export function defaultTtsDetails(): TtsDetails {
  return {
    ttsProvider: SpeechVoiceProvider.Default,
    default_tts: DEFAULT_TTS_MODEL,
    pollyAccessKey: '',
    pollySecretKey: '',
    azureSubscriptionKey: '',
    elevenLabsAPIKey: '',
    cartesiaAPIKey: '',
    ttsRegion: '',
    ttsSpeechSpeed: 0,
    ttsModel: '',
    ttsVoice: DEFAULT_TTS_VOICES[0]!.id,
    neuphonic: { api_key: '', lang_code: '' },
  };
}

function llmBaseUrl(id: LlmProviderId, catalogue?: Pick<BrainCatalogue, 'llmProviders'>): string {
  return (catalogue?.llmProviders ?? LLM_PROVIDERS).find((p) => p.id === id)?.baseUrl ?? '';
}

export function defaultBrainForm(catalogue?: Pick<BrainCatalogue, 'llmProviders'>): BrainForm {
  return {
    setupMode: 'Simple',
    nlpEngine: AvatarEngine.EchoTest,
    realtime: false,
    sttDetails: defaultSttDetails(),
    ttsDetails: defaultTtsDetails(),
    llmDetails: {
      url: llmBaseUrl(DEFAULT_LLM_PROVIDER, catalogue),
      llmProvider: DEFAULT_LLM_PROVIDER,
      llmAPIKey: '',
      llmModel: '',
      llmPrompt: DEFAULT_SYSTEM_PROMPT,
      interactionType: 'prompt',
      llmAssistantId: '',
      summaryEnabled: true,
      llmMaxTokens: LLM_MAX_TOKENS_DEFAULT,
      custom_text: DEFAULT_AVATAR_MEMORY,
      agent_language: DEFAULT_AGENT_LANGUAGE,
    },
    restEndpoint: {
      base_url: '',
      api_key: '',
      custom_text: DEFAULT_AVATAR_MEMORY,
      summary_enabled: true,
      agent_language: DEFAULT_AGENT_LANGUAGE,
    },
    dialogFlowES: { project_id: '', api_key: '', api_key_file_name: '', agent_language: DEFAULT_AGENT_LANGUAGE },
    dialogFlowCX: {
      project_id: '',
      api_key: '',
      api_key_file_name: '',
      agent_language: DEFAULT_AGENT_LANGUAGE,
      agent_id: '',
      region_id: '',
    },
    realtimeDetails: { url: '', api_key: '', model: '', instructions: DEFAULT_SYSTEM_PROMPT, greeting: '', voice_id: '' },
    // The form shows webrtc for a new agent (spec 3 §3).
    elevenLabsConversationAI: { agent_id: '', api_key: '', status: 'idle', connection_type: 'webrtc' },
    agoraTen: { app_id: '', app_certificate: '' },
  };
}

// ---- forms → saved pipeline ----

function sttBlockOf(d: SttDetails, mode: SetupMode): SttBlock {
  const provider = mode === 'Simple' ? SttProvider.Default : d.sttProvider;
  const info = sttProviderInfo(provider ?? SttProvider.Default)!;
  const languages = [...new Set([d.sttLanguage, ...(d.sttAdditionalLanguages ?? [])].filter((l) => l && l.trim()))].join(',');
  if (info.key === 'default' || info.key === 'none')
    return { provider: info.key, default_stt: d.default_stt ?? DEFAULT_STT_MODEL, languages: languages || null };
  const endpointing = toNumber(d.deepgramEndpoint);
  return {
    provider: info.key,
    default_stt: d.default_stt ?? DEFAULT_STT_MODEL,
    region: nullIfEmpty(d.sttRegion),
    api_key: nullIfEmpty(d.sttAPIKey),
    context_phrases: nullIfEmpty(d.sttContextPhrases),
    languages: languages || null,
    model: nullIfEmpty(d.sttModel),
    api_key_file_name: info.keyType === 'file' ? nullIfEmpty(d.sttAPIKeyFileName) : null,
    ...(info.key === 'deepgram' && endpointing !== undefined && !Number.isNaN(endpointing) ? { endpointing } : {}),
  };
}

function ttsBlockOf(d: TtsDetails, mode: SetupMode): TtsBlock {
  const provider = mode === 'Simple' ? SpeechVoiceProvider.Default : d.ttsProvider;
  const info = ttsProviderInfo(provider ?? SpeechVoiceProvider.Default)!;
  const speed = toNumber(d.ttsSpeechSpeed);
  const base: TtsBlock = { provider: info.key, default_tts: d.default_tts ?? DEFAULT_TTS_MODEL, voice_id: nullIfEmpty(d.ttsVoice) };
  if (info.speed && speed !== undefined && !Number.isNaN(speed)) base.speed = speed;
  switch (info.key) {
    case 'polly': {
      const { voiceId, engine } = splitPollyVoice(d.ttsVoice ?? '');
      return {
        ...base,
        voice_id: nullIfEmpty(voiceId),
        model: engine ?? nullIfEmpty(d.ttsModel),
        region: nullIfEmpty(d.ttsRegion),
        api_key: nullIfEmpty(d.pollyAccessKey),
        secret_key: nullIfEmpty(d.pollySecretKey),
      };
    }
    case 'azure':
      return { ...base, region: nullIfEmpty(d.ttsRegion), api_key: nullIfEmpty(d.azureSubscriptionKey) };
    case 'elevenlabs':
      return { ...base, model: nullIfEmpty(d.ttsModel), api_key: nullIfEmpty(d.elevenLabsAPIKey) };
    case 'cartesia':
      return { ...base, model: nullIfEmpty(d.ttsModel), api_key: nullIfEmpty(d.cartesiaAPIKey) };
    case 'neuphonic':
      return { ...base, api_key: nullIfEmpty(d.neuphonic?.api_key), lang_code: nullIfEmpty(d.neuphonic?.lang_code) };
    case 'none':
      return { provider: 'none', default_tts: base.default_tts };
    default:
      return base;
  }
}

function llmBlockOf(f: BrainForm, catalogue?: Pick<BrainCatalogue, 'llmProviders'>): LlmBlock {
  const e = f.nlpEngine;
  const lang = (v: string) => nullIfEmpty(v) ?? DEFAULT_AGENT_LANGUAGE;
  if (e === AvatarEngine.EchoTest) return { provider: 'echo', agent_language: lang(f.llmDetails.agent_language) };
  if (e === AvatarEngine.RestEndpoint) {
    const r = f.restEndpoint;
    // The key is the avatar's restApiKey (formsToAvatarFields), stored once.
    return {
      provider: 'rest',
      base_url: nullIfEmpty(r.base_url),
      custom_text: nullIfEmpty(r.custom_text),
      summary_enabled: r.summary_enabled,
      agent_language: lang(r.agent_language),
    };
  }
  if (e === AvatarEngine.DialogflowES || e === AvatarEngine.DialogflowCX) {
    const cx = e === AvatarEngine.DialogflowCX;
    const d = cx ? f.dialogFlowCX : f.dialogFlowES;
    return {
      provider: cx ? 'dialogflow_cx' : 'dialogflow_es',
      // The JSON key's text is the avatar's jsonKey (formsToAvatarFields), stored once.
      project_id: nullIfEmpty(d.project_id),
      api_key_file_name: nullIfEmpty(d.api_key_file_name),
      agent_language: lang(d.agent_language),
      ...(cx ? { agent_id: nullIfEmpty(f.dialogFlowCX.agent_id), region_id: nullIfEmpty(f.dialogFlowCX.region_id) } : {}),
    };
  }
  if (usesLlmForm(e) || e === AvatarEngine.CustomChatGPTPrompt || e === AvatarEngine.CustomChatGPTAssistant) {
    const d = f.llmDetails;
    const simple = f.setupMode === 'Simple' && e === AvatarEngine.LargeLanguageModel;
    const provider = simple
      ? DEFAULT_LLM_PROVIDER
      : (llmProviderForUrl(catalogue ?? { llmProviders: [...LLM_PROVIDERS] }, d.url)?.id ?? nullIfEmpty(d.llmProvider) ?? '');
    const maxTokens = toNumber(d.llmMaxTokens);
    return {
      provider,
      // Simple mode: the product's own model and key (LLM_BASE_URL / LLM_API_KEY of the server).
      base_url: simple ? null : provider === CUSTOM_LLM_PROVIDER && nullIfEmpty(d.url) ? normaliseCustomBaseUrl(d.url) : nullIfEmpty(d.url),
      api_key: simple ? null : nullIfEmpty(d.llmAPIKey),
      model: nullIfEmpty(d.llmModel),
      instructions: nullIfEmpty(d.llmPrompt),
      assistant_id: d.interactionType === 'assistant' ? nullIfEmpty(d.llmAssistantId) : null,
      max_tokens: maxTokens !== undefined && Number.isInteger(maxTokens) && maxTokens > 0 ? maxTokens : null,
      summary_enabled: d.summaryEnabled,
      custom_text: nullIfEmpty(d.custom_text),
      agent_language: lang(d.agent_language),
    };
  }
  return { provider: 'none' };
}

/** The pipeline to save. Interruption and voice-activity settings belong to the Advanced tab and
 *  are carried over from `advanced` as they are. */
export function formsToPipeline(
  f: BrainForm,
  advanced: Pick<AgentPipelineConfig, 'interrupt_handling' | 'vad_options'> = {},
  catalogue?: Pick<BrainCatalogue, 'llmProviders'>,
): AgentPipelineConfig {
  const speech = usesSpeechSections(f.nlpEngine);
  const out: AgentPipelineConfig = {
    stt: speech ? sttBlockOf(f.sttDetails, f.setupMode) : { provider: 'none', default_stt: f.sttDetails.default_stt ?? DEFAULT_STT_MODEL },
    tts: speech ? ttsBlockOf(f.ttsDetails, f.setupMode) : { provider: 'none', default_tts: f.ttsDetails.default_tts ?? DEFAULT_TTS_MODEL },
    llm: llmBlockOf(f, catalogue),
    ...(advanced.interrupt_handling ? { interrupt_handling: advanced.interrupt_handling } : {}),
    ...(advanced.vad_options ? { vad_options: advanced.vad_options } : {}),
  };
  if (f.nlpEngine === AvatarEngine.ParlaRealtime) {
    const r = f.realtimeDetails;
    Object.assign(out, {
      url: nullIfEmpty(r.url),
      api_key: nullIfEmpty(r.api_key),
      model: nullIfEmpty(r.model),
      instructions: nullIfEmpty(r.instructions),
      greeting: nullIfEmpty(r.greeting),
      voice_id: nullIfEmpty(r.voice_id),
    });
  }
  if (f.nlpEngine === AvatarEngine.Ten) {
    // The third_party block carries TEN's App ID and App Certificate (the runtime reads them there).
    out.third_party = { agent_id: nullIfEmpty(f.agoraTen.app_id), api_key: nullIfEmpty(f.agoraTen.app_certificate) };
  }
  if (f.nlpEngine === AvatarEngine.ElevenLabsConversationAI) {
    const t = f.elevenLabsConversationAI;
    const isPublic = t.status === 'public';
    out.third_party = {
      agent_id: nullIfEmpty(t.agent_id),
      api_key: isPublic ? null : nullIfEmpty(t.api_key),
      is_public: isPublic,
      connection_type: t.connection_type,
    };
  }
  return out;
}

// ---- saved pipeline → forms ----

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : {});

function sttFormOf(raw: Loose): SttDetails {
  const d = defaultSttDetails();
  const info = sttProviderInfo(raw.provider as string);
  // A saved block without a provider reads as none chosen ('Select a STT Provider').
  if (!info) return { ...d, sttProvider: null };
  const langs = s(raw.languages)
    .split(',')
    .map((l) => l.trim())
    .filter(Boolean);
  return {
    ...d,
    sttProvider: info.value,
    default_stt: typeof raw.default_stt === 'number' ? raw.default_stt : d.default_stt,
    sttAPIKey: s(raw.api_key),
    sttAPIKeyType: info.keyType,
    sttAPIKeyFileName: s(raw.api_key_file_name),
    sttRegion: s(raw.region),
    sttModel: s(raw.model),
    // A provider's block without a language reads as none chosen ('Select a STT Language').
    sttLanguage: langs[0] ?? (info.key === 'default' ? d.sttLanguage : ''),
    sttAdditionalLanguages: langs.slice(1),
    sttContextPhrases: s(raw.context_phrases),
    deepgramEndpoint: typeof raw.endpointing === 'number' ? raw.endpointing : '',
  };
}

function ttsFormOf(raw: Loose): TtsDetails {
  const d = defaultTtsDetails();
  const info = ttsProviderInfo(raw.provider as string);
  if (!info) return { ...d, ttsProvider: null };
  const key = s(raw.api_key);
  const voice = s(raw.voice_id);
  return {
    ...d,
    ttsProvider: info.value,
    default_tts: typeof raw.default_tts === 'number' ? raw.default_tts : d.default_tts,
    pollyAccessKey: info.key === 'polly' ? key : '',
    pollySecretKey: info.key === 'polly' ? s(raw.secret_key) : '',
    azureSubscriptionKey: info.key === 'azure' ? key : '',
    elevenLabsAPIKey: info.key === 'elevenlabs' ? key : '',
    cartesiaAPIKey: info.key === 'cartesia' ? key : '',
    ttsRegion: s(raw.region),
    ttsSpeechSpeed: typeof raw.speed === 'number' ? raw.speed : (info.speed?.initial ?? 0),
    ttsModel: s(raw.model),
    ttsVoice: info.key === 'polly' && voice && raw.model ? pollyVoiceKey(voice, s(raw.model)) : voice,
    neuphonic: { api_key: info.key === 'neuphonic' ? key : '', lang_code: s(raw.lang_code) },
  };
}

/** The avatar's own fields of the REST and Dialogflow engines (spec 2 §3), where their keys are
 *  kept (encrypted, answered masked) and the runtime reads them. */
export interface AvatarEngineFields {
  restEndPointURL?: string | null;
  restApiKey?: string | null;
  projectId?: string | null;
  agentId?: string | null;
  regionId?: string | null;
  jsonKey?: string | null;
  agentLanguage?: string | null;
}

export interface AvatarBrainFields extends AvatarEngineFields {
  setupMode?: SetupMode | null;
  nlpEngine?: number | null;
  realtime?: boolean | null;
}

/** The avatar fields the REST and Dialogflow forms write (nothing for the other engines). */
export function formsToAvatarFields(f: BrainForm): AvatarEngineFields {
  const lang = (v: string) => nullIfEmpty(v) ?? DEFAULT_AGENT_LANGUAGE;
  if (f.nlpEngine === AvatarEngine.RestEndpoint) {
    const r = f.restEndpoint;
    return { restEndPointURL: nullIfEmpty(r.base_url), restApiKey: nullIfEmpty(r.api_key), agentLanguage: lang(r.agent_language) };
  }
  if (f.nlpEngine === AvatarEngine.DialogflowES || f.nlpEngine === AvatarEngine.DialogflowCX) {
    const cx = f.nlpEngine === AvatarEngine.DialogflowCX;
    const d = cx ? f.dialogFlowCX : f.dialogFlowES;
    return {
      projectId: nullIfEmpty(d.project_id),
      jsonKey: nullIfEmpty(d.api_key),
      agentLanguage: lang(d.agent_language),
      ...(cx ? { agentId: nullIfEmpty(f.dialogFlowCX.agent_id), regionId: nullIfEmpty(f.dialogFlowCX.region_id) } : {}),
    };
  }
  return {};
}

/** The forms of a saved avatar. Unknown or missing parts fall back to the new-form defaults. */
export function pipelineToForms(config: unknown, avatar: AvatarBrainFields, catalogue?: Pick<BrainCatalogue, 'llmProviders'>): BrainForm {
  const f = defaultBrainForm(catalogue);
  const c = obj(config);
  const llm = obj(c.llm);
  const engine = avatar.nlpEngine ?? AvatarEngine.EchoTest;
  f.setupMode = avatar.setupMode ?? 'Simple';
  f.nlpEngine = engine;
  f.realtime = Boolean(avatar.realtime);
  if (c.stt) f.sttDetails = sttFormOf(obj(c.stt));
  if (c.tts) f.ttsDetails = ttsFormOf(obj(c.tts));
  const lang = s(llm.agent_language) || DEFAULT_AGENT_LANGUAGE;
  const memory = s(llm.custom_text);
  const summary = typeof llm.summary_enabled === 'boolean' ? llm.summary_enabled : true;
  const either = (own: string | null | undefined, block: unknown) => s(own) || s(block);
  const agentLang = either(avatar.agentLanguage, llm.agent_language) || DEFAULT_AGENT_LANGUAGE;
  if (engine === AvatarEngine.RestEndpoint) {
    f.restEndpoint = {
      base_url: either(avatar.restEndPointURL, llm.base_url),
      api_key: either(avatar.restApiKey, llm.api_key),
      custom_text: memory,
      summary_enabled: summary,
      agent_language: agentLang,
    };
  }
  if (engine === AvatarEngine.DialogflowES || engine === AvatarEngine.DialogflowCX) {
    const es = {
      project_id: either(avatar.projectId, llm.project_id),
      api_key: either(avatar.jsonKey, llm.api_key),
      api_key_file_name: s(llm.api_key_file_name),
      agent_language: agentLang,
    };
    if (engine === AvatarEngine.DialogflowES) f.dialogFlowES = es;
    else f.dialogFlowCX = { ...es, agent_id: either(avatar.agentId, llm.agent_id), region_id: either(avatar.regionId, llm.region_id) };
  }
  if (usesLlmForm(engine) || engine === AvatarEngine.CustomChatGPTPrompt || engine === AvatarEngine.CustomChatGPTAssistant) {
    const assistant = s(llm.assistant_id);
    const simple = f.setupMode === 'Simple';
    const maxTokens = typeof llm.max_tokens === 'number' ? llm.max_tokens : '';
    f.llmDetails = {
      url: simple ? llmBaseUrl(DEFAULT_LLM_PROVIDER, catalogue) : s(llm.base_url),
      llmProvider: simple ? DEFAULT_LLM_PROVIDER : s(llm.provider),
      llmAPIKey: s(llm.api_key),
      llmModel: s(llm.model) || (simple ? SIMPLE_MODE_MODELS[0]! : ''),
      llmPrompt: s(llm.instructions),
      // An assistant id means the assistant interaction type (spec 3 §4).
      interactionType: assistant ? 'assistant' : 'prompt',
      llmAssistantId: assistant,
      summaryEnabled: summary,
      llmMaxTokens: maxTokens,
      custom_text: memory,
      agent_language: lang,
    };
  } else {
    f.llmDetails.agent_language = lang;
  }
  if (engine === AvatarEngine.ParlaRealtime) {
    f.realtimeDetails = {
      url: s(c.url),
      api_key: s(c.api_key),
      model: s(c.model),
      instructions: s(c.instructions),
      greeting: s(c.greeting),
      voice_id: s(c.voice_id),
    };
  }
  const tp = obj(c.third_party);
  if (engine === AvatarEngine.Ten) {
    f.agoraTen = { app_id: s(tp.agent_id), app_certificate: s(tp.api_key) };
  } else if (engine === AvatarEngine.ElevenLabsConversationAI || c.third_party) {
    const id = s(tp.agent_id);
    f.elevenLabsConversationAI = {
      agent_id: id,
      api_key: s(tp.api_key),
      status: !id ? 'idle' : tp.is_public === true ? 'public' : 'private',
      // A saved agent without a connection type reads as websocket (spec 3 §3, "both readings").
      connection_type: tp.connection_type === 'webrtc' ? 'webrtc' : 'websocket',
    };
  }
  return f;
}
