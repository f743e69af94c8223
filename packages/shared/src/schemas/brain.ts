// The brain (spec 3): the saved pipeline blocks of customData.agent_pipeline_config with the field
// names of spec 2 §3 and spec 3 §3, every message of spec 3 §5 and §8 (written once, here), and
// the payloads of the provider look-ups (spec 3 §7, docs/api.md "Brain look-ups").
import { z } from 'zod';
import {
  JSON_KEY_MAX_CHARS,
  LLM_MAX_TOKENS_MAX,
  LLM_MEMORY_MAX_CHARS,
  LLM_PROMPT_MAX_CHARS,
  STT_CONTEXT_PHRASES_MAX_CHARS,
} from '../brain-limits';
import { STT_PROVIDER_KEYS, TTS_PROVIDER_KEYS } from '../providers';
import { idField } from './common';

export const BRAIN_MESSAGES = {
  // REST (spec 3 §5)
  restUrlRequired: 'REST Endpoint URL is required',
  notValidUrl: 'Not a valid URL',
  restKeyRequired: 'REST API Key is required',
  memoryRequired: 'A value for Avatar Memory is required',
  // Dialogflow
  dfProjectRequired: 'Dialogflow Project Id is required',
  dfAgentRequired: 'Dialogflow Agent Id is required',
  dfRegionRequired: 'Dialogflow Region Id is required',
  dfKeyRequired: 'Dialogflow JSON Key is required',
  // LLM
  modelRequired: 'Model is required',
  baseUrlRequired: 'Base URL is required',
  baseUrlUnknown: 'Select one of the offered base URLs',
  apiKeyRequired: 'API Key is required',
  assistantRequired: 'Select a Assistant',
  integer: 'Value should be an integer',
  positive: 'Value should be greater than 0',
  // the older validator (engines Custom ChatGPT Prompt / Assistant)
  legacyProviderRequired: 'LLM Provider is required',
  legacyKeyRequired: 'LLM API Key is required',
  legacyModelRequired: 'LLM Model is required',
  legacyPromptRequired: 'AI Prompt is required',
  // realtime
  voiceRequired: 'Voice is required',
  // third-party agent
  agentIdRequired: 'Agent ID is required',
  agentIdInvalid: 'Agent ID is invalid',
  agentKeyInvalid: 'API Key is invalid',
  agentKeyRequired: 'API Key is required for this agent',
  agentIdTooShort: 'Agent ID is too short',
  // Agora TEN (not in the spec: what the runtime needs to join a channel)
  agoraAppIdRequired: 'Agora App ID is required',
  agoraCertificateRequired: 'Agora App Certificate is required',
  // agent check results
  checkKeyRequired: 'API key required for this agent',
  checkKeyInvalid: 'Invalid API key or insufficient permissions',
  checkAgentNotFound: 'Agent ID not found',
  checkFailed: 'An error occurred while validating the agent ID',
  // STT
  sttProviderRequired: 'Select a STT Provider',
  sttLanguageRequired: 'Select a STT Language',
  googleKeyFileRequired: 'Select the Google JSON key file',
  googleRegionRequired: 'Provide Google API Key Region',
  azureKeyRequired: 'Provide Azure API Key',
  azureRegionRequired: 'Provide Azure API Key Region',
  deepgramKeyRequired: 'Provide Deepgram API Key',
  tooManyLanguages: 'Maximum of 10 languages can be selected',
  englishOnlyModel: 'This model recognises English only. Select an English language or another model.',
  sttKeyInvalid: 'Invalid API Key',
  // TTS
  ttsProviderRequired: 'Select a TTS Provider',
  ttsVoiceRequired: 'Select a TTS Voice',
  accessKeyRequired: 'Access Key is required',
  secretKeyRequired: 'Secret Key is required',
  subscriptionKeyRequired: 'Subscription Key is required',
  regionRequired: 'Region is required',
  speedRequired: 'Speech Speed is required',
  speedRange: 'Speech speed should be a number between -1 and 1',
  languageRequired: 'Language is required',
  // look-up failures (spec 3 §8)
  voicesFailed: 'Failed to retrieve voices. Ensure that your keys are valid.',
  assistantsFailed: 'Failed to retrieve assistants. Ensure that your key is valid.',
  invalidKey: 'Invalid Key.',
  invalidUrlOrKey: 'Invalid URL or API Key provided.',
  // select control (spec 3 §2)
  loading: 'Loading...',
  noOptions: 'No options available',
  engineRequired: 'Avatar Engine is required',
  // proxy refusals
  proxyNotAllowed: 'This address is not one of the providers the proxy may call.',
  proxyFailed: 'The provider could not be reached. Please try again.',
  storedKeyMissing: 'No stored key to use for this provider. Enter the key again.',
} as const;

// ---- saved pipeline blocks (customData.agent_pipeline_config) ----

const str = (max: number) => z.string().max(max);
const opt = (max: number) => str(max).nullable().optional();
const num = z.number().finite();

export const sttBlock = z.object({
  provider: z.enum(STT_PROVIDER_KEYS).nullable().optional(),
  default_stt: z.number().int().min(0).max(99).optional(),
  region: opt(60),
  api_key: opt(JSON_KEY_MAX_CHARS),
  context_phrases: opt(STT_CONTEXT_PHRASES_MAX_CHARS),
  /** Primary first, then the additional ones, comma-joined. */
  languages: opt(2000),
  model: opt(100),
  api_key_file_name: opt(255),
  /** Deepgram endpointing (ms of silence that ends an utterance). */
  endpointing: z.number().int().nullable().optional(),
});
export type SttBlock = z.infer<typeof sttBlock>;

export const ttsBlock = z.object({
  provider: z.enum(TTS_PROVIDER_KEYS).nullable().optional(),
  default_tts: z.number().int().min(0).max(99).optional(),
  voice_id: opt(200),
  model: opt(100),
  region: opt(60),
  speed: num.nullable().optional(),
  api_key: opt(2000),
  /** Polly's secret access key. */
  secret_key: opt(2000),
  /** Neuphonic's language. */
  lang_code: opt(20),
});
export type TtsBlock = z.infer<typeof ttsBlock>;

/** The provider values of the llm block besides the ten LLM providers. */
export const LLM_BLOCK_PROVIDERS = ['echo', 'none', 'rest', 'dialogflow_es', 'dialogflow_cx'] as const;

export const llmBlock = z.object({
  provider: str(40),
  instructions: opt(LLM_PROMPT_MAX_CHARS),
  model: opt(200),
  base_url: opt(2000),
  project_id: opt(200),
  api_key: opt(JSON_KEY_MAX_CHARS),
  assistant_id: opt(200),
  max_tokens: z.number().int().min(1).max(LLM_MAX_TOKENS_MAX).nullable().optional(),
  summary_enabled: z.boolean().optional(),
  custom_text: opt(LLM_MEMORY_MAX_CHARS),
  agent_language: opt(20),
  agent_id: opt(200),
  region_id: opt(100),
  api_key_file_name: opt(255),
});
export type LlmBlock = z.infer<typeof llmBlock>;

export const interruptHandlingBlock = z.object({
  allow_interruptions: z.boolean(),
  min_interruption_duration: num,
  min_interruption_words: z.number().int().min(0),
});
export type InterruptHandlingBlock = z.infer<typeof interruptHandlingBlock>;

export const vadOptionsBlock = z.record(z.string().max(60), num).refine((r) => Object.keys(r).length <= 20, 'Too many options');
export type VadOptionsBlock = z.infer<typeof vadOptionsBlock>;

export const CONNECTION_TYPES = ['webrtc', 'websocket'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

export const thirdPartyBlock = z.object({
  agent_id: opt(200),
  api_key: opt(2000),
  is_public: z.boolean().optional(),
  connection_type: z.enum(CONNECTION_TYPES).optional(),
});
export type ThirdPartyBlock = z.infer<typeof thirdPartyBlock>;

/** customData.agent_pipeline_config as saved; the speech-to-speech fields sit at its top level. */
/** As received: the older names (spec 3 §3) are accepted and renamed on save. */
/** Numbers as typed (checked with the spec's messages on save, spec 3 §5). */
const typedNumber = z.union([z.number(), z.string().max(40), z.null()]);

export const interruptHandlingInput = z.object({
  allow_interruptions: z.boolean().optional(),
  min_interruption_duration: typedNumber.optional(),
  min_interruption_words: typedNumber.optional(),
  interrupt_speech_duration: typedNumber.optional(),
  interrupt_min_words: typedNumber.optional(),
});

export const agentPipelineConfig = z.object({
  stt: sttBlock.optional(),
  tts: ttsBlock.optional(),
  llm: llmBlock.optional(),
  interrupt_handling: interruptHandlingInput.optional(),
  vad_options: z
    .record(z.string().max(60), typedNumber)
    .refine((r) => Object.keys(r).length <= 20, 'Too many options')
    .optional(),
  url: opt(2000),
  api_key: opt(2000),
  model: opt(200),
  instructions: opt(LLM_PROMPT_MAX_CHARS),
  greeting: opt(10_000),
  voice_id: opt(200),
  third_party: thirdPartyBlock.optional(),
});
export type AgentPipelineConfig = z.infer<typeof agentPipelineConfig>;

// ---- look-ups (spec 3 §7) ----

const headerValue = z.string().max(JSON_KEY_MAX_CHARS);

/** Which stored secret of the avatar a masked value stands for. */
export const SECRET_REFS = ['stt', 'tts', 'tts_secret', 'llm', 'realtime', 'third_party'] as const;
export type SecretRef = (typeof SECRET_REFS)[number];

export const proxyRequest = z.object({
  url: z.string({ error: BRAIN_MESSAGES.notValidUrl }).trim().min(1, BRAIN_MESSAGES.notValidUrl).max(2000, BRAIN_MESSAGES.notValidUrl),
  type: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(['GET'], { error: 'Only GET requests can be proxied.' }))
    .default('GET'),
  params: z
    .record(z.string().max(100), z.union([z.string().max(2000), z.number(), z.boolean()]))
    .refine((r) => Object.keys(r).length <= 20, 'Too many parameters')
    .optional(),
  headers: z
    .record(z.string().max(100), headerValue)
    .refine((r) => Object.keys(r).length <= 20, 'Too many headers')
    .optional(),
  /** With a masked key: the avatar whose stored key is used. */
  avatarId: idField.optional(),
  secretRef: z.enum(SECRET_REFS).optional(),
});
export type ProxyRequest = z.input<typeof proxyRequest>;

export interface ProxyResponse {
  status: 'OK';
  /** The provider's own HTTP status (a provider 401 is not the portal's 401). */
  httpStatus: number;
  data: unknown;
}

export const sttListVoicesRequest = z.object({
  sttProvider: z.enum(['azure', 'google'], { error: BRAIN_MESSAGES.sttProviderRequired }),
});

const key = z.string().trim().max(2000).optional();

export const ttsListVoicesRequest = z.object({
  ttsProvider: z.union([z.number().int(), z.string().max(20)], { error: BRAIN_MESSAGES.ttsProviderRequired }),
  default_tts: z.number().int().optional(),
  pollyAccessKey: key,
  pollySecretKey: key,
  ttsRegion: z.string().trim().max(60).optional(),
  ttsSpeechSpeed: z.union([z.number(), z.string().max(20)]).optional(),
  azureSubscriptionKey: key,
  elevenLabsAPIKey: key,
  cartesiaAPIKey: key,
  neuphonicAPIKey: key,
  setupMode: z.string().max(20).optional(),
  avatarId: idField.optional(),
});
export type TtsListVoicesRequest = z.input<typeof ttsListVoicesRequest>;

export const llmModelsRequest = z.object({
  baseUrl: z.string({ error: BRAIN_MESSAGES.baseUrlRequired }).trim().min(1, BRAIN_MESSAGES.baseUrlRequired).max(2000),
  apiKey: key,
  avatarId: idField.optional(),
  /** realtime: the speech-to-speech key; llm (default): the llm block's. */
  secretRef: z.enum(['llm', 'realtime']).optional(),
  /** The base URL is a custom OpenAI-compatible one (Composite mode), not one of the offered ten. */
  custom: z.boolean().optional(),
});
export type LlmModelsRequest = z.input<typeof llmModelsRequest>;

export const assistantsRequest = llmModelsRequest.omit({ secretRef: true, custom: true });
export type AssistantsRequest = z.input<typeof assistantsRequest>;

export const AGENT_STATUSES = ['idle', 'public', 'private', 'invalid_api_key', 'invalid_agent_id'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const agentCheckRequest = z.object({
  agent_id: z.string().trim().max(200).default(''),
  api_key: key,
  avatarId: idField.optional(),
});
export type AgentCheckRequest = z.input<typeof agentCheckRequest>;

export interface AgentCheckResponse {
  status: AgentStatus;
  /** The check's message (spec 3 §5 "Check results"), absent on success and idle. */
  message?: string;
}

export interface LlmModelsResponse {
  models: string[];
}

export interface Assistant {
  id: string;
  name: string | null;
  model: string;
}

export interface AssistantsResponse {
  assistants: Assistant[];
}
