// Providers' addresses as this installation reaches them. Every URL of the provider table can be
// redirected by host (configuration PROVIDER_URL_OVERRIDES, e.g. tests point api.openai.com at a
// loopback stand-in); the catalogue the forms receive carries the effective URLs, so what is
// saved is what the runtime calls.
import {
  AGENT_PIPELINE_LIST,
  DEFAULT_TTS_VOICES,
  INTERRUPT_OPTIONS,
  LLM_PROVIDERS,
  PROVIDER_ENDPOINTS,
  REALTIME_PROVIDERS,
  REALTIME_VAD_OPTIONS,
  SETUP_MODE_OPTIONS,
  SIMPLE_MODE_MODELS,
  STT_PROVIDERS,
  TTS_PROVIDERS,
  VAD_OPTIONS,
  type AgentPipeline,
  type LlmProvider,
  type NumberOption,
  type RealtimeProvider,
  type SetupModeOption,
  type SttProviderInfo,
  type TtsProviderInfo,
  type VoiceEntry,
} from './providers';
import { GOOGLE_PREFERRED_STT_LANGUAGES } from './stt-languages';

export interface UrlOverride {
  /** The host as the table writes it, e.g. `api.openai.com` or `{region}.tts.speech.microsoft.com`. */
  host: string;
  /** What replaces scheme and host: `http://127.0.0.1:8691` or `http://127.0.0.1:8693/azure/{region}`. */
  base: string;
}

const URL_PARTS = /^(https?|wss?):\/\/([^/?#]+)(.*)$/i;

/** Parses `host=base,host=base` (the configuration's form). Bad entries are reported, not skipped. */
export function parseUrlOverrides(text: string): { overrides: UrlOverride[]; errors: string[] } {
  const overrides: UrlOverride[] = [];
  const errors: string[] = [];
  for (const raw of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = raw.indexOf('=');
    const host = eq > 0 ? raw.slice(0, eq).trim().toLowerCase() : '';
    const base =
      eq > 0
        ? raw
            .slice(eq + 1)
            .trim()
            .replace(/\/$/, '')
        : '';
    if (!host || !/^https?:\/\/[^/?#]+/i.test(base)) errors.push(`"${raw}" is not host=http(s)://address`);
    else overrides.push({ host, base });
  }
  return { overrides, errors };
}

/** The URL with its host redirected when an override names it (ws/wss follow http/https). */
export function applyUrlOverrides(url: string, overrides: readonly UrlOverride[]): string {
  const m = URL_PARTS.exec(url);
  if (!m) return url;
  const [, scheme, host, rest] = m;
  const o = overrides.find((x) => x.host === host!.toLowerCase());
  if (!o) return url;
  const secure = o.base.toLowerCase().startsWith('https:');
  const base = /^wss?$/i.test(scheme!) ? o.base.replace(/^https?:/i, secure ? 'wss:' : 'ws:') : o.base;
  return `${base}${rest}`;
}

/** Fills a region into a templated URL; regions are short lowercase names, nothing else. */
export function withRegion(url: string, region: string): string {
  if (!/^[a-z0-9-]{2,40}$/.test(region)) throw new Error('Region is invalid');
  return url.split('{region}').join(region);
}

/** Everything the Brain and Advanced forms offer (spec 2 §7 account info, spec 3 §7). */
export interface BrainCatalogue {
  setupModes: readonly SetupModeOption[];
  llmProviders: LlmProvider[];
  singleModeModelsList: readonly string[];
  realtimeProviders: RealtimeProvider[];
  sttProviders: readonly SttProviderInfo[];
  ttsProviders: readonly TtsProviderInfo[];
  googlePreferredSttLanguages: readonly string[];
  defaultVoices: readonly VoiceEntry[];
  interruptOptions: readonly NumberOption[];
  vadOptions: readonly NumberOption[];
  realtimeVadOptions: readonly NumberOption[];
  agentPipelineList: readonly AgentPipeline[];
  endpoints: Record<keyof typeof PROVIDER_ENDPOINTS, string>;
  /** Simple mode's own language model is configured on this server (LLM_BASE_URL); absent: unknown. */
  serverLlm?: boolean;
  /** The product's own speech is configured (SPEECH_BASE_URL): Simple mode and "Default" STT/TTS
   *  are the server's speech; otherwise the browser's. Absent: unknown. */
  serverSpeech?: boolean;
  /** The voice shipped with the server speaks where no speech server does (EMBEDDED_VOICE,
   *  decision 122): "Default" TTS and Simple mode of English avatars. Absent: unknown. */
  embeddedVoice?: boolean;
}

export function buildBrainCatalogue(overrides: readonly UrlOverride[] = []): BrainCatalogue {
  const o = (u: string) => applyUrlOverrides(u, overrides);
  return {
    setupModes: SETUP_MODE_OPTIONS,
    llmProviders: LLM_PROVIDERS.map((p) => ({ ...p, baseUrl: o(p.baseUrl), modelsUrl: o(p.modelsUrl) })),
    singleModeModelsList: SIMPLE_MODE_MODELS,
    realtimeProviders: REALTIME_PROVIDERS.map((p) => ({ ...p, url: o(p.url) })),
    sttProviders: STT_PROVIDERS,
    ttsProviders: TTS_PROVIDERS,
    googlePreferredSttLanguages: GOOGLE_PREFERRED_STT_LANGUAGES,
    defaultVoices: DEFAULT_TTS_VOICES,
    interruptOptions: INTERRUPT_OPTIONS,
    vadOptions: VAD_OPTIONS,
    realtimeVadOptions: REALTIME_VAD_OPTIONS,
    agentPipelineList: AGENT_PIPELINE_LIST,
    endpoints: Object.fromEntries(Object.entries(PROVIDER_ENDPOINTS).map(([k, v]) => [k, o(v)])) as BrainCatalogue['endpoints'],
  };
}

/** The LLM provider a saved base URL belongs to (the URL may be an overridden one). */
export function llmProviderForUrl(
  catalogue: Pick<BrainCatalogue, 'llmProviders'>,
  url: string | null | undefined,
): LlmProvider | undefined {
  const clean = (url ?? '').trim().replace(/\/+$/, '');
  return catalogue.llmProviders.find((p) => p.baseUrl === clean);
}

export function realtimeProviderForUrl(
  catalogue: Pick<BrainCatalogue, 'realtimeProviders'>,
  url: string | null | undefined,
): RealtimeProvider | undefined {
  const clean = (url ?? '').trim().replace(/\/+$/, '');
  return catalogue.realtimeProviders.find((p) => p.url === clean);
}
