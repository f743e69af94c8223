// The node protocol: messages between the server and a pipeline node over WS /ws/node (JSON
// text frames). Both sides parse what they receive with these schemas; a malformed frame is
// refused (the server answers `invalid`), never cast. The node authenticates with
// `Authorization: Bearer {NODE_SECRET}` at the upgrade. Engine configurations (provider keys
// included) travel only over this authenticated channel, to run in the node's memory.
import { z } from 'zod';
import { visemeCue, wordCue } from './conversation';
import { parseJsonFrame as parseWith, type ParsedFrame } from '../zod-messages';

export const NODE_HEARTBEAT_MS = 5_000;
/** A node silent for this long is offline; its conversations end. */
export const NODE_OFFLINE_AFTER_MS = 15_000;
/** Largest node frame (audio chunks and engine configurations included). */
export const NODE_MAX_FRAME_BYTES = 16 * 1024 * 1024;

const id = z.string().min(1).max(200);
const shortText = (max: number) => z.string().max(max);

export const ENGINE_KINDS = [
  'echo',
  'unavailable',
  'llm',
  'assistant',
  'rest',
  'dialogflow_es',
  'dialogflow_cx',
  'realtime',
  'elevenlabs',
  'agora_ten',
  'pipeline',
] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** `at`: when it was said (ISO time), for the engines that pass the history on. */
export const chatMessage = z.object({ role: z.enum(['user', 'assistant']), content: z.string(), at: z.string().optional() });
export type ChatMessage = z.infer<typeof chatMessage>;
/** A knowledge chunk retrieved before a turn, injected into the prompt with its source. */
export const retrievedChunk = z.object({
  text: z.string(),
  source: z.string(),
  itemId: z.string().optional(),
  score: z.number().optional(),
});
export type RetrievedChunk = z.infer<typeof retrievedChunk>;

export const engineEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('delta'), text: z.string() }),
  z.object({ type: z.literal('tool_call'), name: z.string(), arguments: z.string(), result: z.string().optional() }),
  z.object({
    type: z.literal('audio'),
    format: z.enum(['pcm16', 'mp3', 'wav', 'opus']),
    sampleRate: z.number().int().positive().optional(),
    audio: z.string(),
    visemes: z.array(visemeCue).optional(),
    words: z.array(wordCue).optional(),
  }),
  z.object({ type: z.literal('transcript'), text: z.string(), final: z.boolean() }),
]);
export type EngineEvent = z.infer<typeof engineEvent>;

export const connectInfo = z.object({
  provider: z.enum(['elevenlabs', 'agora_ten']),
  signedUrl: z.string().optional(),
  conversationToken: z.string().optional(),
  agentId: z.string().optional(),
  appId: z.string().optional(),
  channel: z.string().optional(),
  uid: z.number().optional(),
  token: z.string().optional(),
  connectionType: z.enum(['webrtc', 'websocket']).optional(),
});
/** Third-party frameworks: what the player needs to connect to the provider itself. */
export type ConnectInfo = z.infer<typeof connectInfo>;
export const openInfo = z.object({ connect: connectInfo.optional(), greeting: z.string().optional() });
export type OpenInfo = z.infer<typeof openInfo>;

/** What an engine learns about its conversation when it opens. */
export const conversationInfo = z.object({
  sessionId: id,
  userId: z.string(),
  userName: z.string(),
  locale: z.string(),
  callbackUrl: z.string(),
});
export type ConversationInfo = z.infer<typeof conversationInfo>;

/** An engine configuration: built by the server's typed mapper (runtime/avatar-config.ts); on
 *  the wire only its kind is checked here, each engine reads its own fields. */
export const engineConfigEnvelope: z.ZodType<{ kind: EngineKind }> = z.looseObject({ kind: z.enum(ENGINE_KINDS) });

export const serverToNode = z.discriminatedUnion('type', [
  z.object({ type: z.literal('registered'), nodeId: id, heartbeatMs: z.number().int().positive() }),
  z.object({ type: z.literal('open'), sessionId: id, config: engineConfigEnvelope, info: conversationInfo }),
  z.object({
    type: z.literal('turn'),
    sessionId: id,
    turnId: id,
    text: z.string(),
    history: z.array(chatMessage),
    context: z.array(retrievedChunk),
  }),
  /** A message the conversation says now (a REST callback's push): spoken by the engine's server
   *  speech when it has one, else answered as text. Its events and end travel like a turn's. */
  z.object({ type: z.literal('say'), sessionId: id, turnId: id, text: z.string() }),
  z.object({ type: z.literal('cancel'), sessionId: id, turnId: id }),
  z.object({ type: z.literal('audio'), sessionId: id, audio: z.string(), sampleRate: z.number().int().positive() }),
  z.object({ type: z.literal('speech'), sessionId: id, event: z.enum(['start', 'end']), atMs: z.number() }),
  z.object({ type: z.literal('speaking'), sessionId: id, value: z.boolean() }),
  z.object({ type: z.literal('close'), sessionId: id, reason: z.string() }),
  z.object({ type: z.literal('shutdown'), reason: z.string() }),
  /** The node sent a frame the server could not accept (it is dropped; the node logs why). */
  z.object({ type: z.literal('invalid'), message: z.string() }),
]);
export type ServerToNode = z.infer<typeof serverToNode>;

export const hostOp = z.discriminatedUnion('op', [
  z.object({ op: z.literal('begin'), turnId: id }),
  z.object({ op: z.literal('emit'), turnId: id, event: engineEvent }),
  z.object({ op: z.literal('end'), turnId: id, error: z.string().optional() }),
  z.object({ op: z.literal('utterance'), text: z.string() }),
  z.object({ op: z.literal('transcript'), text: z.string(), final: z.boolean() }),
  z.object({ op: z.literal('interrupt') }),
]);
export type HostOp = z.infer<typeof hostOp>;

export const nodeRegister = z.object({
  type: z.literal('register'),
  name: shortText(1000).min(1, 'name is required'),
  capacity: z.number().int().positive(),
  address: shortText(1000),
  privateIp: shortText(1000),
});

/** Node → server. `host` frames carry a HostOp beside the session id. */
export const nodeToServer = z.union([
  z.discriminatedUnion('type', [
    nodeRegister,
    z.object({ type: z.literal('ping'), sessions: z.number().int().nonnegative() }),
    z.object({ type: z.literal('opened'), sessionId: id, info: openInfo }),
    z.object({ type: z.literal('open_failed'), sessionId: id, error: z.string() }),
    z.object({ type: z.literal('event'), sessionId: id, turnId: id, event: engineEvent }),
    z.object({ type: z.literal('turn_end'), sessionId: id, turnId: id, error: z.string().optional() }),
  ]),
  z.object({ type: z.literal('host'), sessionId: id }).and(hostOp),
]);
export type NodeToServer = z.infer<typeof nodeToServer>;

export type Parsed<T> = ParsedFrame<T>;

export const parseNodeMessage = (raw: string): Parsed<NodeToServer> => parseWith(nodeToServer, raw);
/** One frame the server sent (the node side). */
export const parseServerMessage = (raw: string): Parsed<ServerToNode> => parseWith(serverToNode, raw);
