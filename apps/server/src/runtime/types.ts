// The engine contract: text in → an async stream of events (text deltas, tool calls, audio,
// transcripts) → end, cancelled by an AbortSignal when the user interrupts. Engines take typed
// configurations (never the avatar row): runtime/avatar-config.ts maps a saved avatar to one.
import type { FastifyBaseLogger } from 'fastify';
import type { OutboundClient } from '../lib/outbound';
import type { EmbeddedVoicePool } from './engines/embedded/voice-pool';
import type { ChatMessage, ConversationInfo, EngineEvent, OpenInfo, RetrievedChunk } from '@parla/shared/schemas/node';
import type { VisemeCue, WordCue } from '@parla/shared/schemas/conversation';

// What crosses the node protocol is defined (and validated) in @parla/shared/schemas/node.
export type { ChatMessage, ConnectInfo, ConversationInfo, EngineEvent, OpenInfo, RetrievedChunk } from '@parla/shared/schemas/node';

/** An approved function offered to a model as a tool (code runs only in the sandbox). */
export interface FunctionTool {
  id: string;
  /** The Python function's name: the tool's name. */
  name: string;
  description: string;
  /** JSON schema of the arguments. */
  parameters: Record<string, unknown>;
  code: string;
  /** Only approved code ever runs; the sandbox refuses anything else. */
  approved: boolean;
  /** The account the function belongs to: the sandbox caps each owner's running calls. */
  ownerId?: string;
  /** The avatar whose conversation calls it: the function's call log names it. */
  avatarId?: string;
}

export interface TurnInput {
  turnId: string;
  text: string;
  history: ChatMessage[];
  context: RetrievedChunk[];
  /** The knowledge base was searched for this turn (an empty context then means nothing relevant). */
  knowledgeSearched?: boolean;
  signal: AbortSignal;
}

/** How an engine speaks without being asked (REST callbacks, realtime audio, pipeline turns). */
export interface EngineHost {
  /** Starts a turn the engine began itself (with the given id, or a new one); returns its id. */
  beginTurn(turnId?: string): string;
  emit(turnId: string, event: EngineEvent): void;
  endTurn(turnId: string, error?: string): void;
  /** A user utterance recognised by the engine (pipeline STT): handled as a user turn. */
  userUtterance(text: string): void;
  /** What the provider heard the user say (realtime engines answer it themselves). */
  transcript(text: string, final: boolean): void;
  /** Whether the avatar is speaking right now (for interruption decisions). */
  speaking(): boolean;
  /** Stops the reply being spoken (barge-in decided by the engine). */
  interrupt(): void;
  /** The STT could not recognise an utterance (it failed or hung): the user is told. */
  recognitionFailed?(): void;
}

export interface Engine {
  readonly kind: EngineConfig['kind'];
  open?(conversation: ConversationInfo): Promise<OpenInfo | void>;
  /** Called once the player has been told the conversation is ready: output may flow from here on. */
  started?(): void;
  turn(input: TurnInput): AsyncIterable<EngineEvent>;
  /** Text the avatar says without being asked (a REST callback push, a delivery): its events,
   *  with the audio of the engine's server speech. Engines without server speech leave it out. */
  say?(text: string, signal: AbortSignal): AsyncIterable<EngineEvent>;
  /** Microphone audio (PCM16 mono) for engines that listen. */
  audio?(pcm: Buffer, sampleRate: number): void;
  /** Voice activity reported by the client. */
  speech?(event: 'start' | 'end', atMs: number): void;
  close(reason: string): Promise<void>;
}

export interface EngineDeps {
  outbound: OutboundClient;
  log: FastifyBaseLogger;
  now(): Date;
  /** Runs an approved function in the sandbox; returns its JSON result as text. */
  runTool(tool: FunctionTool, args: unknown): Promise<string>;
  /** How long a streamed model answer may be silent (LLM_FIRST_TOKEN_MS, LLM_STALL_MS;
   *  decision 614); unset → the defaults of engines/llm.ts. */
  modelTimeouts?: { firstTokenMs: number; stallMs: number };
  /** The embedded voice's workers (decision 122); absent where this process has none. */
  voices?: EmbeddedVoicePool;
}

// ------------------------------------------------------------------ configurations

export interface LlmConfig {
  kind: 'llm';
  /** OpenAI-compatible base URL, e.g. https://api.groq.com/openai/v1 */
  baseUrl: string;
  apiKey: string;
  model: string;
  instructions: string;
  /** The avatar's memory (custom_text). */
  memory: string;
  maxTokens?: number;
  sendHistory: boolean;
  tools: FunctionTool[];
}

export interface AssistantConfig {
  kind: 'assistant';
  baseUrl: string;
  apiKey: string;
  assistantId: string;
  instructions?: string;
}

export interface RestConfig {
  kind: 'rest';
  url: string;
  apiKey: string;
  memory?: string;
  language?: string;
  /** Send Chat History (bit 1): every event carries `history`. */
  sendHistory?: boolean;
  /** The last summary of this end user's previous conversation (memory: issue 13). */
  summary?: string;
}

export interface ServiceAccount {
  client_email: string;
  private_key: string;
  token_uri: string;
  project_id?: string;
}

export interface DialogflowConfig {
  kind: 'dialogflow_es' | 'dialogflow_cx';
  projectId: string;
  serviceAccount: ServiceAccount;
  language: string;
  /** CX only. */
  agentId?: string;
  regionId?: string;
  /** The API origin (defaults: dialogflow.googleapis.com; CX regional hosts). */
  apiBase?: string;
  /** Send Chat History (bit 1): the history goes with each query (decision 620). */
  sendHistory?: boolean;
}

export interface RealtimeVad {
  threshold: number;
  prefixPaddingMs: number;
  silenceDurationMs: number;
}

export interface RealtimeConfig {
  kind: 'realtime';
  provider: 'openai' | 'gemini';
  /** wss://api.openai.com/v1/realtime or the Gemini Live endpoint. */
  url: string;
  apiKey: string;
  model: string;
  voice: string;
  instructions: string;
  greeting?: string;
  vad: RealtimeVad;
  tools: FunctionTool[];
}

export interface ElevenLabsAgentConfig {
  kind: 'elevenlabs';
  agentId: string;
  apiKey?: string;
  connectionType: 'webrtc' | 'websocket';
  apiBase?: string;
}

export interface AgoraTenConfig {
  kind: 'agora_ten';
  appId: string;
  appCertificate: string;
  /** Token lifetime in seconds. */
  ttlSeconds?: number;
}

export interface TurnSettings {
  allowInterruptions: boolean;
  /** Seconds of user speech needed to interrupt. */
  minInterruptionDuration: number;
  minInterruptionWords: number;
  minEndpointingDelay: number;
  maxEndpointingDelay: number;
  minSpeechDuration: number;
  minSilenceDuration: number;
  prefixPaddingDuration: number;
  maxBufferedSpeech: number;
  activationThreshold: number;
}

export interface SttConfig {
  /** 'openai': the OpenAI audio API (the product's own speech, SPEECH_BASE_URL). */
  provider: 'deepgram' | 'google' | 'azure' | 'openai';
  /** Provider origin (defaults to the provider's public API). */
  apiBase?: string;
  apiKey: string;
  language: string;
  /** The additional STT languages (at most 10), for providers that recognise several (decision 623). */
  alternativeLanguages?: string[];
  model?: string;
  /** Words and names the recogniser should expect (the Brain tab's context phrases). */
  phrases?: string[];
  /** How long one recognition may take (default 20 s). */
  timeoutMs?: number;
}

export interface TtsConfig {
  /** 'openai': the OpenAI audio API (the product's own speech, SPEECH_BASE_URL); 'embedded':
   *  the voice shipped with the server (Flite, decision 122) when no speech server is set. */
  provider: 'elevenlabs' | 'cartesia' | 'azure' | 'polly' | 'neuphonic' | 'openai' | 'embedded';
  apiBase?: string;
  apiKey: string;
  voiceId: string;
  model?: string;
  speed?: number;
  /** Polly: the secret access key (apiKey is the access key id) and region. */
  secretKey?: string;
  region?: string;
  /** Neuphonic: the language code. */
  language?: string;
  /** How long one synthesis may take (default 20 s). */
  timeoutMs?: number;
}

/** One synthesised sentence: base64 audio with word timings (seconds) where the provider gives them. */
export interface SpokenAudio {
  format: 'pcm16' | 'mp3' | 'wav';
  sampleRate?: number;
  audio: string;
  words?: WordCue[];
  /** Mouth shapes from the provider's own timings (Polly's speech marks). */
  visemes?: VisemeCue[];
}

/** Server speech around any brain (decision 612): what the user says reaches the STT, what the
 *  brain answers is spoken by the TTS. Either may be null (the browser does that half). */
export interface SpeechConfig {
  stt: SttConfig | null;
  tts: TtsConfig | null;
  turn: TurnSettings;
}

export interface PipelineConfig {
  kind: 'pipeline';
  stt: SttConfig;
  llm: LlmConfig;
  tts: TtsConfig;
  turn: TurnSettings;
}

export interface EchoConfig {
  kind: 'echo';
}

/** An engine that cannot run (Simple mode with no product model configured, ...): it says why. */
export interface UnavailableConfig {
  kind: 'unavailable';
  message: string;
}

/** Every engine configuration; `speech` puts server speech around a text brain (Echo, LLM,
 *  REST, Dialogflow, Simple mode). */
export type EngineConfig = BrainConfig & { speech?: SpeechConfig };

export type BrainConfig =
  | EchoConfig
  | UnavailableConfig
  | LlmConfig
  | AssistantConfig
  | RestConfig
  | DialogflowConfig
  | RealtimeConfig
  | ElevenLabsAgentConfig
  | AgoraTenConfig
  | PipelineConfig;

/** Turn-taking defaults (spec 3 §9; LiveKit Agents' names and values). */
export const DEFAULT_TURN_SETTINGS: TurnSettings = {
  allowInterruptions: true,
  minInterruptionDuration: 0.5,
  minInterruptionWords: 0,
  minEndpointingDelay: 0.5,
  maxEndpointingDelay: 3.0,
  minSpeechDuration: 0.05,
  minSilenceDuration: 0.55,
  prefixPaddingDuration: 0.5,
  maxBufferedSpeech: 60,
  activationThreshold: 0.5,
};

/** Realtime (OpenAI server_vad) defaults (spec 3 §9). */
export const DEFAULT_REALTIME_VAD: RealtimeVad = { threshold: 0.5, prefixPaddingMs: 300, silenceDurationMs: 500 };
