// The one table of the brain's providers (spec 3 §2, §3, §9; spec 2 §7 "provider and model
// lists"): setup modes and their engines, the ten LLM base URLs, realtime URLs, models and
// voices, speech-to-text and text-to-speech providers with their defaults, regions and speed
// ranges, interruption and voice-activity options, the product pipelines and the Simple-mode
// models. The server serves it (with its URL overrides applied, see applyUrlOverrides) in
// account info; forms, the server's validation and its look-ups all read it from here.
import { AvatarEngine, PRODUCT_NAME, SpeechVoiceProvider, SttProvider, type SetupMode } from './enums';
import {
  DEFAULT_STT_MODEL,
  DEFAULT_TTS_MODEL,
  INTERRUPTION_DURATION_DEFAULT_S,
  INTERRUPTION_MIN_WORDS_DEFAULT,
  SPEECH_SPEED_MAX,
  SPEECH_SPEED_MIN,
} from './brain-limits';
import { DEFAULT_SPOKEN_LANGUAGE } from './languages';

// ---- setup modes (spec 3 §2) ----

export interface SetupModeOption {
  value: SetupMode;
  label: string;
  meaning: string;
  /** Offered engines, in order: when the current one is not offered, the first is chosen. */
  engines: AvatarEngine[];
}

export const SETUP_MODE_OPTIONS: readonly SetupModeOption[] = [
  {
    value: 'Simple',
    label: 'Simple',
    meaning: `${PRODUCT_NAME}-provided speech-to-text, LLM and text-to-speech.`,
    engines: [AvatarEngine.EchoTest, AvatarEngine.LargeLanguageModel, AvatarEngine.RestEndpoint],
  },
  {
    value: 'Composite',
    label: 'Composite (cascading)',
    meaning: 'Any speech-to-text, LLM and text-to-speech.',
    engines: [
      AvatarEngine.EchoTest,
      AvatarEngine.LargeLanguageModel,
      AvatarEngine.RestEndpoint,
      AvatarEngine.DialogflowCX,
      AvatarEngine.DialogflowES,
    ],
  },
  {
    value: 'SpeechToSpeech',
    label: 'Speech to Speech',
    meaning: 'Multimodal LLMs that listen and speak themselves.',
    engines: [AvatarEngine.ParlaRealtime],
  },
  {
    value: 'None',
    label: '3rd Party AI',
    meaning: 'Third-party conversational frameworks.',
    engines: [AvatarEngine.Ten, AvatarEngine.ElevenLabsConversationAI, AvatarEngine.CUSTOM_STT_LLM_TTS],
  },
];

export function enginesForMode(mode: SetupMode | undefined): AvatarEngine[] {
  return (SETUP_MODE_OPTIONS.find((m) => m.value === mode) ?? SETUP_MODE_OPTIONS[0]!).engines;
}

/** The engine kept when the mode changes: the current one if offered, else the first offered. */
export function engineForMode(mode: SetupMode, current: number | undefined): AvatarEngine {
  const offered = enginesForMode(mode);
  return offered.includes(current as AvatarEngine) ? (current as AvatarEngine) : offered[0]!;
}

/** Engines that listen and speak themselves: speech-to-text and text-to-speech are None. */
export function enginesWithOwnSpeech(): AvatarEngine[] {
  return [AvatarEngine.Ten, AvatarEngine.ParlaRealtime, AvatarEngine.ElevenLabsConversationAI];
}

// ---- large language models (spec 3 §3 "Base addresses offered") ----

export const LLM_PROVIDER_IDS = [
  'openai',
  'groq',
  'gemini',
  'cerebras',
  'deepseek',
  'fireworks',
  'perplexity',
  'telnyx',
  'together',
  'xai',
] as const;
export type LlmProviderId = (typeof LLM_PROVIDER_IDS)[number];

export interface LlmProvider {
  id: LlmProviderId;
  name: string;
  /** OpenAI-compatible base URL; chat completions live at {baseUrl}/chat/completions. */
  baseUrl: string;
  /** Where the model list is read: OpenAI shape (data[].id, bearer key) or Gemini's native one
   *  (models[].name, key in the query). */
  modelsUrl: string;
  modelsShape: 'openai' | 'gemini';
  /** OpenAI's assistants (GET {baseUrl}/assistants). */
  assistants: boolean;
}

const GEMINI_API = 'https://generativelanguage.googleapis.com';

export const LLM_PROVIDERS: readonly LlmProvider[] = [
  {
    id: 'openai',
    name: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    modelsUrl: 'https://api.openai.com/v1/models',
    modelsShape: 'openai',
    assistants: true,
  },
  {
    id: 'groq',
    name: 'Groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    modelsUrl: 'https://api.groq.com/openai/v1/models',
    modelsShape: 'openai',
    assistants: false,
  },
  {
    id: 'gemini',
    name: 'Gemini',
    baseUrl: `${GEMINI_API}/v1beta/openai`,
    modelsUrl: `${GEMINI_API}/v1beta/models`,
    modelsShape: 'gemini',
    assistants: false,
  },
  {
    id: 'cerebras',
    name: 'Cerebras',
    baseUrl: 'https://api.cerebras.ai/v1',
    modelsUrl: 'https://api.cerebras.ai/v1/models',
    modelsShape: 'openai',
    assistants: false,
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    baseUrl: 'https://api.deepseek.com/v1',
    modelsUrl: 'https://api.deepseek.com/v1/models',
    modelsShape: 'openai',
    assistants: false,
  },
  {
    id: 'fireworks',
    name: 'Fireworks',
    baseUrl: 'https://api.fireworks.ai/inference/v1',
    modelsUrl: 'https://api.fireworks.ai/inference/v1/models',
    modelsShape: 'openai',
    assistants: false,
  },
  {
    id: 'perplexity',
    name: 'Perplexity',
    baseUrl: 'https://api.perplexity.ai',
    modelsUrl: 'https://api.perplexity.ai/models',
    modelsShape: 'openai',
    assistants: false,
  },
  {
    id: 'telnyx',
    name: 'Telnyx',
    baseUrl: 'https://api.telnyx.com/v2/ai',
    modelsUrl: 'https://api.telnyx.com/v2/ai/models',
    modelsShape: 'openai',
    assistants: false,
  },
  {
    id: 'together',
    name: 'Together',
    baseUrl: 'https://api.together.xyz/v1',
    modelsUrl: 'https://api.together.xyz/v1/models',
    modelsShape: 'openai',
    assistants: false,
  },
  {
    id: 'xai',
    name: 'xAI',
    baseUrl: 'https://api.x.ai/v1',
    modelsUrl: 'https://api.x.ai/v1/models',
    modelsShape: 'openai',
    assistants: false,
  },
];

/** Choosing the LLM engine starts on Groq (spec 3 §4); Simple mode forces it. */
export const DEFAULT_LLM_PROVIDER: LlmProviderId = 'groq';

/** Simple mode: the product's own Groq-hosted models; the first is picked. */
export const SIMPLE_MODE_MODELS: readonly string[] = [
  'llama-3.3-70b-versatile',
  'llama-3.1-8b-instant',
  'openai/gpt-oss-120b',
  'openai/gpt-oss-20b',
];

// ---- speech to speech (spec 3 §3) ----

export const REALTIME_PROVIDER_IDS = ['openai', 'gemini'] as const;
export type RealtimeProviderId = (typeof REALTIME_PROVIDER_IDS)[number];

export interface RealtimeProvider {
  id: RealtimeProviderId;
  name: string;
  url: string;
  models: string[];
  voices: string[];
}

export const REALTIME_PROVIDERS: readonly RealtimeProvider[] = [
  {
    id: 'openai',
    name: 'OpenAI',
    url: 'wss://api.openai.com/v1/realtime',
    models: [
      'gpt-4o-mini-realtime-preview',
      'gpt-4o-mini-realtime-preview-2024-12-17',
      'gpt-4o-realtime-preview',
      'gpt-4o-realtime-preview-2024-12-17',
    ],
    voices: ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse'],
  },
  {
    id: 'gemini',
    name: 'Gemini',
    url: 'wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1alpha.GenerativeService.BidiGenerateContent',
    models: ['gemini-2.0-flash-exp'],
    voices: ['Puck', 'Charon', 'Kore', 'Fenrir', 'Aoede'],
  },
];

// ---- speech to text (spec 3 §3, §4) ----

export const STT_PROVIDER_KEYS = ['default', 'google', 'azure', 'deepgram', 'none'] as const;
export type SttProviderKey = (typeof STT_PROVIDER_KEYS)[number];
export const API_KEY_TYPES = ['none', 'string', 'file'] as const;
export type ApiKeyType = (typeof API_KEY_TYPES)[number];

export interface SttProviderInfo {
  value: SttProvider;
  key: SttProviderKey;
  name: string;
  keyType: ApiKeyType;
  /** What a provider change selects (spec 3 §4). */
  defaults: { model?: string; region?: string; language: string };
  models?: string[];
  regions?: string[];
}

/** Azure Speech regions (speech-to-text and text-to-speech share them). */
export const AZURE_SPEECH_REGIONS: readonly string[] = [
  'eastus',
  'eastus2',
  'westus',
  'westus2',
  'westus3',
  'centralus',
  'northcentralus',
  'southcentralus',
  'westcentralus',
  'canadacentral',
  'brazilsouth',
  'northeurope',
  'westeurope',
  'uksouth',
  'francecentral',
  'germanywestcentral',
  'switzerlandnorth',
  'norwayeast',
  'swedencentral',
  'eastasia',
  'southeastasia',
  'japaneast',
  'japanwest',
  'koreacentral',
  'australiaeast',
  'centralindia',
  'uaenorth',
  'southafricanorth',
  'qatarcentral',
];

export const GOOGLE_STT_LOCATIONS: readonly string[] = [
  'global',
  'us',
  'eu',
  'us-central1',
  'europe-west4',
  'asia-southeast1',
  'asia-northeast1',
];
export const GOOGLE_STT_MODELS: readonly string[] = ['long', 'short', 'telephony', 'chirp_2'];

export const DEEPGRAM_DEFAULT_MODEL = 'nova-3-general';
export const DEEPGRAM_MULTILINGUAL = 'multi';
/** Offered for English only (spec 3 §4). */
export const DEEPGRAM_ENGLISH_ONLY_MODEL = 'flux-general-en';

export const STT_PROVIDERS: readonly SttProviderInfo[] = [
  {
    value: SttProvider.Default,
    key: 'default',
    name: `${PRODUCT_NAME} (default)`,
    keyType: 'none',
    defaults: { language: DEFAULT_SPOKEN_LANGUAGE },
  },
  {
    value: SttProvider.Google,
    key: 'google',
    name: 'Google',
    keyType: 'file',
    defaults: { model: 'long', region: 'global', language: DEFAULT_SPOKEN_LANGUAGE },
    models: [...GOOGLE_STT_MODELS],
    regions: [...GOOGLE_STT_LOCATIONS],
  },
  {
    value: SttProvider.Azure,
    key: 'azure',
    name: 'Azure',
    keyType: 'string',
    defaults: { language: DEFAULT_SPOKEN_LANGUAGE },
    regions: [...AZURE_SPEECH_REGIONS],
  },
  {
    value: SttProvider.Deepgram,
    key: 'deepgram',
    name: 'Deepgram',
    keyType: 'string',
    defaults: { model: DEEPGRAM_DEFAULT_MODEL, language: DEEPGRAM_MULTILINGUAL },
    models: [DEEPGRAM_DEFAULT_MODEL, 'nova-2-general', DEEPGRAM_ENGLISH_ONLY_MODEL],
  },
  { value: SttProvider.None, key: 'none', name: 'None', keyType: 'none', defaults: { language: DEFAULT_SPOKEN_LANGUAGE } },
];

export function sttProviderInfo(value: number | string | undefined | null): SttProviderInfo | undefined {
  return STT_PROVIDERS.find((p) => p.value === value || p.key === value);
}

// ---- text to speech (spec 3 §3, §4) ----

export const TTS_PROVIDER_KEYS = ['default', 'azure', 'polly', 'elevenlabs', 'cartesia', 'neuphonic', 'none'] as const;
export type TtsProviderKey = (typeof TTS_PROVIDER_KEYS)[number];

export interface SpeedRange {
  min: number;
  max: number;
  step: number;
  /** The speed a provider change sets (spec 3 §4: 1 for Neuphonic, 0 for the others). */
  initial: number;
  required: boolean;
}

export interface TtsProviderInfo {
  value: SpeechVoiceProvider;
  key: TtsProviderKey;
  name: string;
  regions?: string[];
  models?: string[];
  speed?: SpeedRange;
  /** Voice used when the provider gives no list (and the default provider's first voice). */
  defaultVoice?: string;
}

export const POLLY_REGIONS: readonly string[] = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ca-central-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-central-1',
  'eu-north-1',
  'ap-south-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-southeast-2',
  'sa-east-1',
  'af-south-1',
];
/** Polly voices are listed once per engine (spec 3 §3: "Standard and Neural variants"). */
export const POLLY_ENGINES = ['standard', 'neural'] as const;
export type PollyEngine = (typeof POLLY_ENGINES)[number];
export const NEUPHONIC_LANGUAGES: readonly string[] = ['en', 'es', 'de', 'nl', 'ar', 'fr', 'pt', 'ru', 'hi', 'zh'];
export const CARTESIA_API_VERSION = '2025-04-16';

const relative = (initial: number, required: boolean): SpeedRange => ({
  min: SPEECH_SPEED_MIN,
  max: SPEECH_SPEED_MAX,
  step: 0.1,
  initial,
  required,
});

export const TTS_PROVIDERS: readonly TtsProviderInfo[] = [
  { value: SpeechVoiceProvider.Default, key: 'default', name: `${PRODUCT_NAME} (default)`, defaultVoice: 'parla-en-US-female' },
  {
    value: SpeechVoiceProvider.Azure,
    key: 'azure',
    name: 'Azure',
    regions: [...AZURE_SPEECH_REGIONS],
    speed: relative(0, true),
    defaultVoice: 'en-US-JennyNeural',
  },
  {
    value: SpeechVoiceProvider.Polly,
    key: 'polly',
    name: 'Amazon Polly',
    regions: [...POLLY_REGIONS],
    models: [...POLLY_ENGINES],
    defaultVoice: 'Joanna',
  },
  {
    value: SpeechVoiceProvider.ElevenLabs,
    key: 'elevenlabs',
    name: 'ElevenLabs',
    models: ['eleven_flash_v2_5', 'eleven_turbo_v2_5', 'eleven_multilingual_v2'],
    defaultVoice: '21m00Tcm4TlvDq8ikWAM',
  },
  { value: SpeechVoiceProvider.Cartesia, key: 'cartesia', name: 'Cartesia', models: ['sonic-2', 'sonic-turbo'], speed: relative(0, false) },
  { value: SpeechVoiceProvider.Neuphonic, key: 'neuphonic', name: 'Neuphonic', speed: relative(1, true) },
  { value: SpeechVoiceProvider.None, key: 'none', name: 'None' },
];

export function ttsProviderInfo(value: number | string | undefined | null): TtsProviderInfo | undefined {
  return TTS_PROVIDERS.find((p) => p.value === value || p.key === value);
}

/** A voice as every list answers it (spec 3 §3). */
export interface VoiceEntry {
  id: string;
  name: string;
  languageCode: string;
  languageName: string;
  gender: string;
  supportedEngines: string[];
  custom: boolean;
}

/** The product's own voices (Default provider), spoken by the player. */
export const DEFAULT_TTS_VOICES: readonly VoiceEntry[] = [
  {
    id: 'parla-en-US-female',
    name: 'Ava (US English)',
    languageCode: 'en-US',
    languageName: 'English (United States)',
    gender: 'Female',
    supportedEngines: ['default'],
    custom: false,
  },
  {
    id: 'parla-en-US-male',
    name: 'Andrew (US English)',
    languageCode: 'en-US',
    languageName: 'English (United States)',
    gender: 'Male',
    supportedEngines: ['default'],
    custom: false,
  },
  {
    id: 'parla-en-GB-female',
    name: 'Sonia (British English)',
    languageCode: 'en-GB',
    languageName: 'English (United Kingdom)',
    gender: 'Female',
    supportedEngines: ['default'],
    custom: false,
  },
  {
    id: 'parla-en-GB-male',
    name: 'Ryan (British English)',
    languageCode: 'en-GB',
    languageName: 'English (United Kingdom)',
    gender: 'Male',
    supportedEngines: ['default'],
    custom: false,
  },
  {
    id: 'parla-multilingual-female',
    name: 'Emma (multilingual)',
    languageCode: 'aa',
    languageName: 'Multilingual',
    gender: 'Female',
    supportedEngines: ['default'],
    custom: false,
  },
];

// ---- product pipelines (spec 3 §9: default sttModel 0, ttsModel 1) ----

export interface AgentPipeline {
  id: string;
  name: string;
  sttModel: number;
  ttsModel: number;
}

export const AGENT_PIPELINE_LIST: readonly AgentPipeline[] = [
  { id: 'default', name: 'Default', sttModel: DEFAULT_STT_MODEL, ttsModel: DEFAULT_TTS_MODEL },
  { id: 'fast', name: 'Low latency', sttModel: 1, ttsModel: 0 },
];

// ---- interruptions and voice activity (spec 3 §3, §9) ----

export interface NumberOption {
  key: string;
  label: string;
  kind: 'boolean' | 'number' | 'integer';
  default: number | boolean;
  min?: number;
  max?: number;
  step?: number;
  unit?: string;
  description: string;
}

export const INTERRUPT_OPTIONS: readonly NumberOption[] = [
  {
    key: 'allow_interruptions',
    label: 'Allow interruptions',
    kind: 'boolean',
    default: true,
    description: 'The user speaking stops the avatar.',
  },
  {
    key: 'min_interruption_duration',
    label: 'Interruption duration',
    kind: 'number',
    default: INTERRUPTION_DURATION_DEFAULT_S,
    min: 0,
    step: 0.05,
    unit: 's',
    description: 'Speech needed before it counts as an interruption.',
  },
  {
    key: 'min_interruption_words',
    label: 'Min interruption words',
    kind: 'integer',
    default: INTERRUPTION_MIN_WORDS_DEFAULT,
    min: 0,
    step: 1,
    description: 'Words needed before it counts as an interruption (0: any speech).',
  },
];

export const VAD_OPTIONS: readonly NumberOption[] = [
  {
    key: 'min_endpointing_delay',
    label: 'Min endpointing delay',
    kind: 'number',
    default: 0.5,
    min: 0,
    step: 0.05,
    unit: 's',
    description: 'Silence after speech before the turn may end.',
  },
  {
    key: 'max_endpointing_delay',
    label: 'Max endpointing delay',
    kind: 'number',
    default: 3,
    min: 0,
    step: 0.1,
    unit: 's',
    description: 'Longest wait for the user to continue.',
  },
  {
    key: 'min_speech_duration',
    label: 'Min speech duration',
    kind: 'number',
    default: 0.05,
    min: 0,
    step: 0.01,
    unit: 's',
    description: 'Speech needed to start a turn.',
  },
  {
    key: 'min_silence_duration',
    label: 'Min silence duration',
    kind: 'number',
    default: 0.55,
    min: 0,
    step: 0.05,
    unit: 's',
    description: 'Silence needed to end speech.',
  },
  {
    key: 'prefix_padding_duration',
    label: 'Prefix padding duration',
    kind: 'number',
    default: 0.5,
    min: 0,
    step: 0.05,
    unit: 's',
    description: 'Audio kept before the start of speech.',
  },
  {
    key: 'max_buffered_speech',
    label: 'Max buffered speech',
    kind: 'number',
    default: 60,
    min: 0,
    step: 1,
    unit: 's',
    description: 'The most speech held while the avatar is busy.',
  },
  {
    key: 'activation_threshold',
    label: 'Activation threshold',
    kind: 'number',
    default: 0.5,
    min: 0,
    max: 1,
    step: 0.05,
    description: 'How sure the detector must be that it hears speech (0.0 to 1.0).',
  },
];

/** Speech-to-speech models detect turns themselves (OpenAI server_vad). */
export const REALTIME_VAD_OPTIONS: readonly NumberOption[] = [
  {
    key: 'threshold',
    label: 'Threshold',
    kind: 'number',
    default: 0.5,
    min: 0,
    max: 1,
    step: 0.05,
    description: 'How sure the model must be that it hears speech (0.0 to 1.0).',
  },
  {
    key: 'prefix_padding_ms',
    label: 'Prefix padding',
    kind: 'integer',
    default: 300,
    min: 0,
    step: 10,
    unit: 'ms',
    description: 'Audio kept before the start of speech.',
  },
  {
    key: 'silence_duration_ms',
    label: 'Silence duration',
    kind: 'integer',
    default: 500,
    min: 0,
    step: 10,
    unit: 'ms',
    description: 'Silence that ends the user’s turn.',
  },
];

export function defaultsOf(options: readonly NumberOption[]): Record<string, number | boolean> {
  return Object.fromEntries(options.map((o) => [o.key, o.default]));
}

// ---- the endpoints the look-ups call (the server's allow-list is built from these) ----

export const PROVIDER_ENDPOINTS = {
  deepgram: 'https://api.deepgram.com/v1',
  elevenlabs: 'https://api.elevenlabs.io/v1',
  cartesia: 'https://api.cartesia.ai',
  neuphonic: 'https://api.neuphonic.com',
  azureTtsVoices: 'https://{region}.tts.speech.microsoft.com/cognitiveservices/voices/list',
  azureStt: 'wss://{region}.stt.speech.microsoft.com',
  pollyVoices: 'https://polly.{region}.amazonaws.com/v1/voices',
  googleStt: 'https://speech.googleapis.com',
} as const;
