// Messages between the server and a pipeline node over WS /ws/node (JSON text frames). The node
// authenticates with `Authorization: Bearer {NODE_SECRET}` at the upgrade. Engine configurations
// (provider keys included) travel only over this authenticated channel, to run in the node's
// memory; run nodes and the server on a private network or behind TLS.
import type { EngineConfig, EngineEvent, ChatMessage, RetrievedChunk, SessionInfo, OpenInfo } from '../types';

export type ServerToNode =
  | { type: 'registered'; nodeId: string; heartbeatMs: number }
  | { type: 'open'; sessionId: string; config: EngineConfig; info: SessionInfo }
  | { type: 'turn'; sessionId: string; turnId: string; text: string; history: ChatMessage[]; context: RetrievedChunk[] }
  | { type: 'cancel'; sessionId: string; turnId: string }
  | { type: 'audio'; sessionId: string; audio: string; sampleRate: number }
  | { type: 'speech'; sessionId: string; event: 'start' | 'end'; atMs: number }
  | { type: 'speaking'; sessionId: string; value: boolean }
  | { type: 'close'; sessionId: string; reason: string }
  | { type: 'shutdown'; reason: string };

export type HostOp =
  | { op: 'begin'; turnId: string }
  | { op: 'emit'; turnId: string; event: EngineEvent }
  | { op: 'end'; turnId: string; error?: string }
  | { op: 'utterance'; text: string }
  | { op: 'transcript'; text: string; final: boolean }
  | { op: 'interrupt' };

export type NodeToServer =
  | { type: 'register'; name: string; capacity: number; address: string; privateIp: string }
  | { type: 'ping'; sessions: number }
  | { type: 'opened'; sessionId: string; info: OpenInfo }
  | { type: 'open_failed'; sessionId: string; error: string }
  | { type: 'event'; sessionId: string; turnId: string; event: EngineEvent }
  | { type: 'turn_end'; sessionId: string; turnId: string; error?: string }
  | ({ type: 'host'; sessionId: string } & HostOp);

export const NODE_HEARTBEAT_MS = 5_000;
/** A node silent for this long is offline; its conversations end. */
export const NODE_OFFLINE_AFTER_MS = 15_000;
