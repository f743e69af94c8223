// The conversation protocol: JSON text frames over WS /ws/conversation between the player and
// the server (design/api.md "Conversation messages"). The minimum every client relies on —
// ready, user_text, assistant_delta, assistant_done, interrupt, bye, error — never changes
// shape; the other types are additions. Every refusal closes with a code of CLOSE_CODES.
import { z } from 'zod';
import { ErrorCode } from '../errors';
import { parseJsonFrame, type ParsedFrame } from '../zod-messages';
import { VISEMES } from '../visemes';
import { pageLimit, pageOffset } from './paging';

/** Largest frame either side sends (audio frames included): 256 KiB. */
export const CONVERSATION_MAX_FRAME_BYTES = 256 * 1024;
/** Longest user message, in characters. */
export const CONVERSATION_MAX_TEXT = 4000;
/** Client frames per second a conversation accepts on average (a burst of 2× is allowed). */
export const CONVERSATION_MAX_FRAMES_PER_SECOND = 50;
/** Open conversations one IP address may have at once (MaxConcurrencyPerIPReached beyond). */
export const MAX_CONVERSATIONS_PER_IP = 5;
/** User messages (texts, final transcripts) per second a conversation accepts on average, for as
 *  long as it lasts: one turn a second is a fast typist's pace, and a cheap client's loop. */
export const CONVERSATION_TEXTS_PER_SECOND = 1;
/** User messages taken at once above that pace: messages queued while the server (or the network)
 *  paused for up to this many seconds arrive together and are all taken (decision 614). */
export const CONVERSATION_TEXT_BURST = 30;

/** WebSocket close codes: 1000 is a normal end; 4000 + a client error code of spec 1 §8 is a
 *  refusal with that code; 41xx are ends that are not errors of the client. */
export const CLOSE_CODES = {
  normal: 1000,
  goingAway: 1001,
  tooLarge: 1009,
  authenticationFailed: 4000 + ErrorCode.AuthenticationFailed,
  invalidParams: 4000 + ErrorCode.InvalidOrMissingParams,
  roomNotFound: 4000 + ErrorCode.RoomNotFoundError,
  usageLimitExceeded: 4000 + ErrorCode.UsageLimitExceeded,
  maxConcurrencyReached: 4000 + ErrorCode.MaxConcurrencyReached,
  invalidToken: 4000 + ErrorCode.InvalidToken,
  requestFail: 4000 + ErrorCode.RequestFail,
  maxConcurrencyPerIP: 4000 + ErrorCode.MaxConcurrencyPerIPReached,
  serverError: 4000 + ErrorCode.ServerError,
  /** The page's origin may not open conversations with this avatar. */
  originRefused: 4103,
  /** Too many frames or messages: the client ignored the rate limit. */
  rateLimited: 4129,
  /** No user message for the avatar's idle timeout. */
  idleTimeout: 4110,
  /** The avatar's demo duration is used up (spec 3 §4: disconnect). */
  demoOver: 4111,
  /** The pipeline node running the conversation went away or was deleted. */
  nodeLost: 4112,
  /** The server is shutting down. */
  serverClosing: 4113,
} as const;
export type CloseCode = (typeof CLOSE_CODES)[keyof typeof CLOSE_CODES];

const text = z.string().max(CONVERSATION_MAX_TEXT, `A message may be at most ${CONVERSATION_MAX_TEXT} characters`);
/** Text the server stores (the hello's names go to the conversation record): no NUL, which
 *  PostgreSQL cannot hold. */
export const NUL_IN_HELLO_MESSAGE = 'The hello message must not contain NUL characters.';
const noNul = (s: string) => !s.includes('\u0000');
const shortText = z.string().max(200).refine(noNul, NUL_IN_HELLO_MESSAGE);
const localeText = z.string().max(35).refine(noNul, NUL_IN_HELLO_MESSAGE);
const turnId = z.string().min(1).max(100);

/** States of the avatar the player shows. */
export const CONVERSATION_STATES = ['connecting', 'listening', 'thinking', 'speaking', 'idle', 'ended'] as const;
export type ConversationState = (typeof CONVERSATION_STATES)[number];

// ---------------------------------------------------------------- client → server

/** First message of the client (optional: a conversation starts with defaults without it). */
export const helloMessage = z.object({
  type: z.literal('hello'),
  userName: shortText.optional(),
  userId: shortText.optional(),
  /** A random id the player keeps per browser: the per-session daily limit follows it. */
  deviceId: shortText.optional(),
  deviceOS: shortText.optional(),
  locale: localeText.optional(),
  spokenLanguage: localeText.optional(),
  /** The client can play server audio (otherwise it speaks the text itself). */
  audio: z.boolean().optional(),
});

export const userTextMessage = z.object({ type: z.literal('user_text'), text: text.min(1, 'A message is required') });

/** The latest `user_speech.at` a client may send: one day in milliseconds. */
export const MAX_SPEECH_AT_MS = 24 * 60 * 60 * 1000;

/** Voice activity seen by the client (browser speech recognition or its own VAD). */
export const userSpeechMessage = z.object({
  type: z.literal('user_speech'),
  event: z.enum(['start', 'end']),
  /** Milliseconds since the conversation started, as the client measured it (at most a day: a
   *  conversation never lasts longer, and a huge number would skew the engines' turn timing). */
  at: z.number().nonnegative().max(MAX_SPEECH_AT_MS).optional(),
});

/** A transcript made by the client; final ones become a turn like user_text. */
export const userTranscriptMessage = z.object({
  type: z.literal('user_transcript'),
  text,
  final: z.boolean(),
});

export const interruptMessage = z.object({ type: z.literal('interrupt') });
export const byeMessage = z.object({ type: z.literal('bye') });
export const pingMessage = z.object({ type: z.literal('ping') });

export const clientMessage = z.discriminatedUnion('type', [
  helloMessage,
  userTextMessage,
  userSpeechMessage,
  userTranscriptMessage,
  interruptMessage,
  byeMessage,
  pingMessage,
]);
export type ClientMessage = z.infer<typeof clientMessage>;

// ---------------------------------------------------------------- server → client

export const readyMessage = z.object({
  type: z.literal('ready'),
  sessionId: z.string(),
  avatarId: z.string(),
  /** The brain's display name (AVATAR_ENGINE_NAMES). */
  engine: z.string(),
  /** A message the avatar says first (the avatar's greeting), when it has one. */
  greeting: z.string().optional(),
  /** Seconds of silence after which the conversation ends. */
  idleTimeout: z.number().int().optional(),
  /** Replies come with the provider's audio frames: the player plays them instead of speaking. */
  audio: z.boolean().optional(),
  /** How the avatar listens: 'server' = the player streams microphone audio as binary frames
   *  (audio-frames.ts) and the server recognises it; 'browser' = the browser's recognition sends
   *  user_transcript. Absent means 'browser'. */
  listen: z.enum(['server', 'browser']).optional(),
  /** Voice activity detection and turn-taking the player applies (the avatar's pipeline
   *  options, seconds), and whether speech over the avatar may interrupt it. */
  vad: z
    .object({
      activation_threshold: z.number(),
      min_speech_duration: z.number(),
      min_silence_duration: z.number(),
      prefix_padding_duration: z.number(),
      max_buffered_speech: z.number(),
      allow_interruptions: z.boolean(),
      min_interruption_duration: z.number(),
    })
    .optional(),
  /** Handle STT Response (permission bit 2): the player posts what it recognised to the host
   *  page (`sttResponse`) instead of sending it; the host sends it with sendChat, or not. */
  handleSttResponse: z.boolean().optional(),
  /** Transcription Streaming: interim transcripts and the avatar's words as spoken are shown. */
  transcriptionStreaming: z.boolean().optional(),
  /** Enable Transcript Download: where the end user downloads this conversation's transcript. */
  transcriptUrl: z.string().optional(),
});

export const assistantDeltaMessage = z.object({ type: z.literal('assistant_delta'), turnId, text: z.string() });
export const assistantDoneMessage = z.object({
  type: z.literal('assistant_done'),
  turnId,
  /** The whole reply (what was said before an interruption, when interrupted). */
  text: z.string(),
  interrupted: z.boolean().optional(),
  /** Sources of retrieved knowledge used for this reply. */
  sources: z.array(z.object({ name: z.string(), itemId: z.string().optional() })).optional(),
});

/** Final or partial transcript of the user's speech recognised on the server. */
export const transcriptMessage = z.object({ type: z.literal('transcript'), text: z.string(), final: z.boolean() });

export const visemeCue = z.object({ viseme: z.enum(VISEMES), start: z.number().nonnegative(), end: z.number().nonnegative() });
export const wordCue = z.object({ word: z.string(), start: z.number().nonnegative(), end: z.number().nonnegative() });
export type VisemeCue = z.infer<typeof visemeCue>;
export type WordCue = z.infer<typeof wordCue>;

/** Text the player should say itself (browser speech) with timings when known (seconds). */
export const speakMessage = z.object({
  type: z.literal('speak'),
  turnId,
  text: z.string(),
  visemes: z.array(visemeCue).optional(),
  words: z.array(wordCue).optional(),
});

export const stateMessage = z.object({ type: z.literal('state'), state: z.enum(CONVERSATION_STATES) });

/** Something the end user should know that is not an error (limits reached, engine switched). */
export const noticeMessage = z.object({
  type: z.literal('notice'),
  reason: z.enum(['daily_limit_echo', 'engine_unavailable']),
  message: z.string(),
});

/** Third-party frameworks: what the player needs to connect to the provider itself. */
export const connectMessage = z.object({
  type: z.literal('connect'),
  provider: z.enum(['elevenlabs', 'agora_ten']),
  /** ElevenLabs: a signed WebSocket URL (websocket) or a conversation token (webrtc). */
  signedUrl: z.string().optional(),
  conversationToken: z.string().optional(),
  agentId: z.string().optional(),
  /** Agora: app id, channel, uid and RTC token. */
  appId: z.string().optional(),
  channel: z.string().optional(),
  uid: z.number().int().optional(),
  token: z.string().optional(),
  connectionType: z.enum(['webrtc', 'websocket']).optional(),
});

export const errorMessage = z.object({
  type: z.literal('error'),
  code: z.number().int(),
  message: z.string(),
  /** The avatar needs its partner's sign-in first: where to send the end user (add ?back=). */
  signInUrl: z.string().optional(),
});

export const serverByeMessage = z.object({
  type: z.literal('bye'),
  reason: z.enum(['client', 'idle', 'demo', 'usage', 'node_lost', 'server', 'engine', 'billing']),
});

export const pongMessage = z.object({ type: z.literal('pong') });

export const serverMessage = z.discriminatedUnion('type', [
  readyMessage,
  assistantDeltaMessage,
  assistantDoneMessage,
  transcriptMessage,
  speakMessage,
  stateMessage,
  noticeMessage,
  connectMessage,
  errorMessage,
  serverByeMessage,
  pongMessage,
]);
export type ServerMessage = z.infer<typeof serverMessage>;
export type ByeReason = z.infer<typeof serverByeMessage>['reason'];

/** Parses one client frame: its message, or the error to answer when it is not JSON or not a known message. */
export function parseClientMessage(raw: string): ParsedFrame<ClientMessage> {
  return parseJsonFrame(clientMessage, raw);
}

// ---------------------------------------------------------------- REST lists (spec 1 §3, §7)

/** An online user as the lists show it (spec 1 §3). */
export interface OnlineUser {
  sessionId: string;
  userName: string;
  deviceOS: string;
  onlineStatus: string;
  locale: string;
  lastConnectTimeStamp: string;
  ipAddress: string;
  spokenLanguage: string;
}

export interface OnlineUserDetail extends OnlineUser {
  userId: string;
  deviceId: string;
  deviceCount: number;
  avatarIdAndType: string;
  avatarId: string;
  avatarName: string;
}

export const VPS_STATUSES = ['AVAILABLE', 'BUSY', 'DRAINING', 'OFFLINE'] as const;
export type VpsStatus = (typeof VPS_STATUSES)[number];

/** A pipeline node (spec 1 §3 "VPS"). */
export interface Vps {
  id: string;
  vpsId: string;
  name: string;
  vpsName: string;
  status: VpsStatus;
  sessionId: string;
  vpsAddress: string;
  dockerPrivateIp: string;
  remoteIp: string;
  assignedUserId: string;
  webSocket: string;
  created: string;
  lastConnectTime: string;
  lastPingTime: string;
  lastUsedTime: string;
  /** Beyond the spec: conversations running and the node's capacity. */
  sessions: number;
  capacity: number;
  inProcess: boolean;
}

export const modeGetRequest = z.object({ mode: z.literal('get', { error: 'mode must be get' }) });
/** The online-user lists, a page at a time, newest first (decision 221). */
export const onlineUsersRequest = modeGetRequest.extend({ limit: pageLimit.optional(), offset: pageOffset.optional() });
export const getOnlineUserRequest = z.object({
  sessionId: z.string({ error: 'Session Id is required' }).trim().min(1, 'Session Id is required').max(100, 'Session Id is invalid'),
  mode: z.literal('get', { error: 'mode must be get' }),
});
export const getVpsRequest = z.object({
  vpsId: z.string({ error: 'VPS Id is required' }).trim().min(1, 'VPS Id is required').max(100, 'VPS Id is invalid'),
  mode: z.literal('get', { error: 'mode must be get' }),
});
export const delVpsRequest = z.object({
  vpsId: z.string({ error: 'VPS Id is required' }).trim().min(1, 'VPS Id is required').max(100, 'VPS Id is invalid'),
  mode: z.literal('delete', { error: 'mode must be delete' }),
});
export const avatarLatencyRequest = z.object({
  // Taken as sent, never trimmed (schemas/avatar-id.ts): an id breaking the rule is not found.
  agentId: z.string({ error: 'Avatar Id is required' }).min(1, 'Avatar Id is required').max(100, 'Avatar Id is invalid'),
});

/** Per-turn latency of one avatar (beyond the spec), milliseconds. */
export interface LatencySummary {
  turns: number;
  firstDelta: { p50: number | null; p95: number | null };
  engine: { p50: number | null; p95: number | null };
  retrieval: { p50: number | null; p95: number | null };
}

export interface AvatarLatency {
  avatarId: string;
  avatarName: string;
  latency: LatencySummary;
}
