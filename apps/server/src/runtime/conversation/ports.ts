// What a conversation's parts need from the rest of the server, as narrow interfaces: the
// runtime wires real implementations (repositories, the knowledge hook, the latency recorder);
// no part receives the whole Runtime.
import type { Insertable } from 'kysely';
import type { ServerMessage } from '@parla/shared/schemas/conversation';
import type { ConversationsTable } from '../../db/tables/conversations';
import type { TurnTiming } from '../repositories/conversation-turns.repository';
import type { UsageKey } from '../repositories/usage-counters.repository';
import type { RetrievedChunk } from '../types';
import type { ReplyFinished } from './reply';

/** Where a conversation's frames go: the client socket. The turn loop sees only this sink. */
export interface ClientSink {
  send(msg: ServerMessage): void;
  /** One binary audio frame (@parla/shared/audio-frames encodeAudioFrame). */
  sendBinary(frame: Uint8Array): void;
}

/** The conversation records (modules/conversations). */
export interface ConversationStore {
  start(row: Insertable<ConversationsTable>): Promise<void>;
  end(id: string, at: Date, reason: string, detail?: string): Promise<void>;
  /** Issue 13: the end-of-conversation summary, and the last one of a verified end user. */
  saveSummary?(id: string, summary: string): Promise<void>;
  lastSummary?(ownerId: string, avatarId: string, verifiedUserId: string): Promise<string | null>;
  /** Issue 38: reads the ended conversation's written transcript once (insight, knowledge gaps). */
  analyse?(id: string): Promise<void>;
}

/** One message of a transcript (modules/conversations/transcripts.repository.ts). */
export interface TranscriptRow {
  conversationId: string;
  ownerId: string;
  avatarId: string;
  seq: number;
  role: string;
  text: string;
  at: Date;
  interrupted: boolean;
  /** The avatar's messages: passages the answer had (0: searched, none relevant); null: no search. */
  knowledgeHits?: number | null;
}

/** Takes messages in order and writes them in batches (runtime/transcript-writer.ts). */
export interface TranscriptStore {
  add(row: TranscriptRow): void;
  /** Resolves once every message added so far is written (or its failure logged). */
  flush(): Promise<void>;
}

/** The daily allowances' counters and the plan's monthly minutes. */
export interface UsageStore {
  add(keys: UsageKey[], seconds: number, at: Date): Promise<void>;
  today(key: UsageKey, at: Date): Promise<number>;
  /** Whether the owner's plan minutes of this month are used up. */
  monthlyMinutesUsedUp(ownerId: string): Promise<boolean>;
}

/** Knowledge retrieval before a turn. */
export interface Retriever {
  retrieve(ownerId: string, collectionIds: string[], query: string, topK: number, threshold?: number): Promise<RetrievedChunk[]>;
}

/** Where each reply's timings go (batched into conversation_turns). */
export interface LatencySink {
  add(t: TurnTiming): void;
}

export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface TurnLoopListener {
  replyFinished(r: ReplyFinished): void;
  /** The avatar started or stopped speaking (a remote node decides barge-in with it). */
  speakingChanged(value: boolean): void;
  /** A message of the transcript: the user's, the avatar's, or the hidden wake-up turn. */
  said?(role: 'user' | 'assistant' | 'wake_up', text: string, interrupted: boolean, knowledgeHits?: number | null): void;
}

/** What every conversation's turn loop shares (one object per runtime: thousands of idle
 *  conversations stay small). */
export interface TurnLoopServices {
  retriever: Retriever;
  log: Logger;
  now(): Date;
}
