// The forms of Brain → FOUNDATIONS (spec 3 §2, §3) and their validation (spec 3 §5). The rules are
// plain functions of the form values and the chosen mode and engine, so the browser checks one
// form as the user types and the server checks the whole saved pipeline with the same messages
// (brain-pipeline.ts turns a saved pipeline back into these forms).
import { z } from 'zod';
import { AvatarEngine, SpeechVoiceProvider, SttProvider, type SetupMode } from '../enums';
import {
  AGENT_API_KEY_MIN_LENGTH,
  AGENT_ID_MIN_LENGTH,
  SPEECH_SPEED_MAX,
  SPEECH_SPEED_MIN,
  STT_ADDITIONAL_LANGUAGES_MAX,
} from '../brain-limits';
import { DEEPGRAM_ENGLISH_ONLY_MODEL, enginesWithOwnSpeech, ttsProviderInfo, type ApiKeyType } from '../providers';
import { llmProviderForUrl, realtimeProviderForUrl, type BrainCatalogue } from '../provider-urls';
import { BRAIN_MESSAGES as M, type AgentStatus, type ConnectionType } from './brain';
import { CUSTOM_LLM_MESSAGES, CUSTOM_LLM_PROVIDER, customBaseUrlIssue } from './custom-llm';

/** Secrets come back from the server masked ('••••abcd'); a masked value means "the stored one". */
export const SECRET_MASK_PREFIX = '••••';
export function isMaskedSecret(v: unknown): boolean {
  return typeof v === 'string' && v.startsWith(SECRET_MASK_PREFIX);
}

export type NumberInput = number | string | null | undefined;

export interface SttDetails {
  sttProvider: SttProvider | null;
  default_stt: number;
  sttAPIKey: string;
  sttAPIKeyType: ApiKeyType;
  sttAPIKeyFileName: string;
  sttRegion: string;
  sttModel: string;
  sttLanguage: string;
  sttAdditionalLanguages: string[];
  /** One phrase per line. */
  sttContextPhrases: string;
  deepgramEndpoint: NumberInput;
}

export interface NeuphonicDetails {
  api_key: string;
  lang_code: string;
}

export interface TtsDetails {
  ttsProvider: SpeechVoiceProvider | null;
  default_tts: number;
  pollyAccessKey: string;
  pollySecretKey: string;
  azureSubscriptionKey: string;
  elevenLabsAPIKey: string;
  cartesiaAPIKey: string;
  ttsRegion: string;
  ttsSpeechSpeed: NumberInput;
  ttsModel: string;
  ttsVoice: string;
  neuphonic: NeuphonicDetails;
}

export type InteractionType = 'prompt' | 'assistant';

export interface LlmDetails {
  url: string;
  llmProvider: string;
  llmAPIKey: string;
  llmModel: string;
  llmPrompt: string;
  interactionType: InteractionType;
  llmAssistantId: string;
  summaryEnabled: boolean;
  llmMaxTokens: NumberInput;
  /** Avatar memory. */
  custom_text: string;
  agent_language: string;
}

export interface RestEndpointDetails {
  base_url: string;
  api_key: string;
  custom_text: string;
  summary_enabled: boolean;
  agent_language: string;
}

export interface DialogflowEsDetails {
  project_id: string;
  /** The text of the uploaded JSON key file. */
  api_key: string;
  api_key_file_name: string;
  agent_language: string;
}

export interface DialogflowCxDetails extends DialogflowEsDetails {
  agent_id: string;
  region_id: string;
}

export interface RealtimeDetails {
  url: string;
  api_key: string;
  model: string;
  instructions: string;
  greeting: string;
  voice_id: string;
}

export interface ThirdPartyAgentDetails {
  agent_id: string;
  api_key: string;
  status: AgentStatus;
  connection_type: ConnectionType;
}

/** Agora TEN (the runtime's agent joins an Agora channel): the project's App ID and App Certificate. */
export interface AgoraTenDetails {
  app_id: string;
  app_certificate: string;
}

export interface BrainForm {
  setupMode: SetupMode;
  nlpEngine: number;
  realtime: boolean;
  sttDetails: SttDetails;
  ttsDetails: TtsDetails;
  llmDetails: LlmDetails;
  restEndpoint: RestEndpointDetails;
  dialogFlowES: DialogflowEsDetails;
  dialogFlowCX: DialogflowCxDetails;
  realtimeDetails: RealtimeDetails;
  elevenLabsConversationAI: ThirdPartyAgentDetails;
  agoraTen: AgoraTenDetails;
}

export interface Issue {
  path: (string | number)[];
  message: string;
}

/** Lists the look-ups can check against (the server's catalogue; forms pass the served one). */
export type CatalogueLists = Pick<BrainCatalogue, 'llmProviders' | 'realtimeProviders'>;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** '' and null are "empty"; other strings must be numbers. */
export function toNumber(v: NumberInput): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number') return v;
  const t = v.trim();
  return t === '' ? undefined : Number(t);
}

/** An absolute http(s) URL with a host (shared has no URL parser: no DOM, no Node). */
export const HTTP_URL_PATTERN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[^\s]*)?$/;

// ---- which sections an engine uses ----

export function usesSpeechSections(engine: number): boolean {
  return !enginesWithOwnSpeech().includes(engine as AvatarEngine);
}

export function usesLlmForm(engine: number): boolean {
  return engine === AvatarEngine.LargeLanguageModel || engine === AvatarEngine.CUSTOM_STT_LLM_TTS;
}

/** The LLM form names its own OpenAI-compatible base URL ("Custom", Composite mode only). */
export function isCustomLlm(d: Pick<LlmDetails, 'llmProvider'>): boolean {
  return d.llmProvider === CUSTOM_LLM_PROVIDER;
}

const LEGACY_LLM_ENGINES: number[] = [AvatarEngine.CustomChatGPTPrompt, AvatarEngine.CustomChatGPTAssistant];

// ---- the rules, one function per form ----

export function validateStt(d: SttDetails, mode: SetupMode): Issue[] {
  const out: Issue[] = [];
  const add = (field: keyof SttDetails, message: string) => out.push({ path: ['sttDetails', field], message });
  if ((d.sttAdditionalLanguages ?? []).length > STT_ADDITIONAL_LANGUAGES_MAX) add('sttAdditionalLanguages', M.tooManyLanguages);
  if (mode === 'Simple' || d.sttProvider === SttProvider.Default) return out;
  if (d.sttProvider === null || d.sttProvider === undefined) {
    add('sttProvider', M.sttProviderRequired);
    return out;
  }
  if (d.sttProvider === SttProvider.None) return out;
  if (blank(d.sttLanguage)) add('sttLanguage', M.sttLanguageRequired);
  if (d.sttProvider === SttProvider.Google) {
    if (blank(d.sttAPIKey)) add('sttAPIKey', M.googleKeyFileRequired);
    if (blank(d.sttRegion)) add('sttRegion', M.googleRegionRequired);
  } else if (d.sttProvider === SttProvider.Azure) {
    if (blank(d.sttAPIKey)) add('sttAPIKey', M.azureKeyRequired);
    if (blank(d.sttRegion)) add('sttRegion', M.azureRegionRequired);
  } else if (d.sttProvider === SttProvider.Deepgram) {
    if (blank(d.sttAPIKey)) add('sttAPIKey', M.deepgramKeyRequired);
    const ep = toNumber(d.deepgramEndpoint);
    if (ep !== undefined && !Number.isInteger(ep)) add('deepgramEndpoint', M.integer);
    else if (ep !== undefined && ep <= 0) add('deepgramEndpoint', M.positive);
    const english = [d.sttLanguage, ...(d.sttAdditionalLanguages ?? [])].every((l) => /^en(-|$)/i.test(l ?? ''));
    if (d.sttModel === DEEPGRAM_ENGLISH_ONLY_MODEL && !english) add('sttModel', M.englishOnlyModel);
  }
  return out;
}

function speedIssue(v: NumberInput, required: boolean): string | null {
  const n = toNumber(v);
  if (n === undefined) return required ? M.speedRequired : null;
  if (Number.isNaN(n) || n < SPEECH_SPEED_MIN || n > SPEECH_SPEED_MAX) return M.speedRange;
  return null;
}

export function validateTts(d: TtsDetails, mode: SetupMode): Issue[] {
  const out: Issue[] = [];
  const add = (field: keyof TtsDetails | 'neuphonic.api_key' | 'neuphonic.lang_code', message: string) =>
    out.push({ path: ['ttsDetails', ...field.split('.')], message });
  const p = d.ttsProvider;
  if (p === null || p === undefined) {
    add('ttsProvider', M.ttsProviderRequired);
    return out;
  }
  if (p === SpeechVoiceProvider.None) return out;
  // The product's own voice is optional: without a choice it speaks with its first voice.
  if (mode === 'Simple' || p === SpeechVoiceProvider.Default) return out;
  if (blank(d.ttsVoice)) add('ttsVoice', M.ttsVoiceRequired);
  const speed = ttsProviderInfo(p)?.speed;
  if (p === SpeechVoiceProvider.Polly) {
    if (blank(d.pollyAccessKey)) add('pollyAccessKey', M.accessKeyRequired);
    if (blank(d.pollySecretKey)) add('pollySecretKey', M.secretKeyRequired);
    if (blank(d.ttsRegion)) add('ttsRegion', M.regionRequired);
  } else if (p === SpeechVoiceProvider.Azure) {
    if (blank(d.azureSubscriptionKey)) add('azureSubscriptionKey', M.subscriptionKeyRequired);
    if (blank(d.ttsRegion)) add('ttsRegion', M.regionRequired);
  } else if (p === SpeechVoiceProvider.ElevenLabs) {
    if (blank(d.elevenLabsAPIKey)) add('elevenLabsAPIKey', M.apiKeyRequired);
  } else if (p === SpeechVoiceProvider.Cartesia) {
    if (blank(d.cartesiaAPIKey)) add('cartesiaAPIKey', M.apiKeyRequired);
  } else if (p === SpeechVoiceProvider.Neuphonic) {
    if (blank(d.neuphonic?.api_key)) add('neuphonic.api_key', M.apiKeyRequired);
    if (blank(d.neuphonic?.lang_code)) add('neuphonic.lang_code', M.languageRequired);
  }
  if (speed) {
    const issue = speedIssue(d.ttsSpeechSpeed, speed.required);
    if (issue) add('ttsSpeechSpeed', issue);
  }
  return out;
}

export function validateLlm(d: LlmDetails, mode: SetupMode, engine: number, lists?: CatalogueLists): Issue[] {
  const out: Issue[] = [];
  const add = (field: keyof LlmDetails, message: string) => out.push({ path: ['llmDetails', field], message });
  if (LEGACY_LLM_ENGINES.includes(engine)) {
    if (blank(d.llmProvider)) add('llmProvider', M.legacyProviderRequired);
    if (blank(d.llmAPIKey)) add('llmAPIKey', M.legacyKeyRequired);
    if (blank(d.llmModel)) add('llmModel', M.legacyModelRequired);
    if (engine === AvatarEngine.CustomChatGPTPrompt && blank(d.llmPrompt)) add('llmPrompt', M.legacyPromptRequired);
    if (engine === AvatarEngine.CustomChatGPTAssistant && blank(d.llmAssistantId)) add('llmAssistantId', M.assistantRequired);
    return out;
  }
  const custom = isCustomLlm(d);
  if (mode !== 'Simple') {
    if (blank(d.url)) add('url', M.baseUrlRequired);
    else if (custom && (mode !== 'Composite' || engine !== AvatarEngine.LargeLanguageModel)) add('url', CUSTOM_LLM_MESSAGES.compositeOnly);
    else if (custom) {
      const issue = customBaseUrlIssue(d.url);
      if (issue) add('url', issue);
    } else if (lists && !llmProviderForUrl(lists, d.url)) add('url', M.baseUrlUnknown);
    if (blank(d.llmAPIKey)) add('llmAPIKey', M.apiKeyRequired);
    if (custom && d.interactionType === 'assistant') add('interactionType', CUSTOM_LLM_MESSAGES.assistantsOpenAiOnly);
  }
  if (blank(d.llmModel)) add('llmModel', M.modelRequired);
  if (d.interactionType === 'assistant' && blank(d.llmAssistantId)) add('llmAssistantId', M.assistantRequired);
  if (blank(d.custom_text)) add('custom_text', M.memoryRequired);
  const max = toNumber(d.llmMaxTokens);
  if (max !== undefined && (Number.isNaN(max) || !Number.isInteger(max))) add('llmMaxTokens', M.integer);
  else if (max !== undefined && max <= 0) add('llmMaxTokens', M.positive);
  return out;
}

export function validateRest(d: RestEndpointDetails): Issue[] {
  const out: Issue[] = [];
  const add = (field: keyof RestEndpointDetails, message: string) => out.push({ path: ['restEndpoint', field], message });
  if (blank(d.base_url)) add('base_url', M.restUrlRequired);
  else if (!HTTP_URL_PATTERN.test(d.base_url.trim())) add('base_url', M.notValidUrl);
  if (blank(d.api_key)) add('api_key', M.restKeyRequired);
  if (blank(d.custom_text)) add('custom_text', M.memoryRequired);
  return out;
}

export function validateDialogflow(d: DialogflowEsDetails | DialogflowCxDetails, cx: boolean): Issue[] {
  const out: Issue[] = [];
  const form = cx ? 'dialogFlowCX' : 'dialogFlowES';
  const add = (field: string, message: string) => out.push({ path: [form, field], message });
  if (blank(d.project_id)) add('project_id', M.dfProjectRequired);
  if (cx) {
    const c = d as DialogflowCxDetails;
    if (blank(c.agent_id)) add('agent_id', M.dfAgentRequired);
    if (blank(c.region_id)) add('region_id', M.dfRegionRequired);
  }
  if (blank(d.api_key)) add('api_key', M.dfKeyRequired);
  return out;
}

export function validateRealtime(d: RealtimeDetails, lists?: CatalogueLists): Issue[] {
  const out: Issue[] = [];
  const add = (field: keyof RealtimeDetails, message: string) => out.push({ path: ['realtimeDetails', field], message });
  const provider = lists ? realtimeProviderForUrl(lists, d.url) : undefined;
  if (blank(d.url)) add('url', M.baseUrlRequired);
  else if (lists && !provider) add('url', M.baseUrlUnknown);
  if (blank(d.api_key)) add('api_key', M.apiKeyRequired);
  if (blank(d.model) || (provider && !provider.models.includes(d.model))) add('model', M.modelRequired);
  if (blank(d.voice_id) || (provider && !provider.voices.includes(d.voice_id))) add('voice_id', M.voiceRequired);
  return out;
}

/** The key counts only when it is long enough to be real, or stands for a stored one. */
export function agentKeyPresent(key: string | null | undefined): boolean {
  return isMaskedSecret(key) || (key ?? '').trim().length >= AGENT_API_KEY_MIN_LENGTH;
}

export function validateThirdParty(d: ThirdPartyAgentDetails): Issue[] {
  const out: Issue[] = [];
  const add = (field: keyof ThirdPartyAgentDetails, message: string) => out.push({ path: ['elevenLabsConversationAI', field], message });
  const id = (d.agent_id ?? '').trim();
  if (!id) add('agent_id', M.agentIdRequired);
  // Shorter ids are never checked (they stay idle), so they cannot be saved either.
  else if (id.length < AGENT_ID_MIN_LENGTH) add('agent_id', M.agentIdTooShort);
  else if (d.status === 'invalid_agent_id' || d.status === 'idle') add('agent_id', M.agentIdInvalid);
  else if (d.status === 'invalid_api_key') add('api_key', M.agentKeyInvalid);
  else if (d.status === 'private' && !agentKeyPresent(d.api_key)) add('api_key', M.agentKeyRequired);
  return out;
}

/** Agora TEN has no rules in the spec; without these two the runtime cannot join a channel. */
export function validateAgoraTen(d: AgoraTenDetails): Issue[] {
  const out: Issue[] = [];
  if (blank(d?.app_id)) out.push({ path: ['agoraTen', 'app_id'], message: M.agoraAppIdRequired });
  if (blank(d?.app_certificate)) out.push({ path: ['agoraTen', 'app_certificate'], message: M.agoraCertificateRequired });
  return out;
}

/** Every rule that applies to the chosen mode and engine (spec 3 §5 "Brain foundation steps"). */
export function validateBrain(f: BrainForm, lists?: CatalogueLists): Issue[] {
  const engine = f.nlpEngine;
  if (engine === undefined || engine === null || !(Object.values(AvatarEngine) as number[]).includes(engine)) {
    return [{ path: ['nlpEngine'], message: M.engineRequired }];
  }
  const out: Issue[] = [];
  if (usesLlmForm(engine) || LEGACY_LLM_ENGINES.includes(engine)) out.push(...validateLlm(f.llmDetails, f.setupMode, engine, lists));
  if (engine === AvatarEngine.RestEndpoint) out.push(...validateRest(f.restEndpoint));
  if (engine === AvatarEngine.DialogflowES) out.push(...validateDialogflow(f.dialogFlowES, false));
  if (engine === AvatarEngine.DialogflowCX) out.push(...validateDialogflow(f.dialogFlowCX, true));
  if (engine === AvatarEngine.ParlaRealtime) out.push(...validateRealtime(f.realtimeDetails, lists));
  if (engine === AvatarEngine.ElevenLabsConversationAI) out.push(...validateThirdParty(f.elevenLabsConversationAI));
  if (engine === AvatarEngine.Ten) out.push(...validateAgoraTen(f.agoraTen));
  if (usesSpeechSections(engine)) {
    out.push(...validateStt(f.sttDetails, f.setupMode));
    out.push(...validateTts(f.ttsDetails, f.setupMode));
  }
  return out;
}

/** A zod schema around a rule function, for react-hook-form's zodResolver. */
export function issuesSchema<T>(rules: (value: T) => Issue[]) {
  return z
    .custom<T>((v) => typeof v === 'object' && v !== null)
    .superRefine((value, ctx) => {
      for (const issue of rules(value)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    });
}

/** The whole Brain → FOUNDATIONS form. */
export function brainFormSchema(lists?: CatalogueLists) {
  return issuesSchema<BrainForm>((f) => validateBrain(f, lists));
}
