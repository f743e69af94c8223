// A pipeline node as the server sees it: where a conversation's engine runs. The in-process
// node runs engines here; a remote node runs them in its own process over WS /ws/node.
import type { Engine, EngineConfig, EngineHost, OpenInfo, ConversationInfo } from '../types';

export interface NodeHandle {
  readonly id: string;
  readonly name: string;
  readonly inProcess: boolean;
  readonly capacity: number;
  /** Ids of the conversations whose engines run here. */
  readonly conversations: Set<string>;
  /** Opens an engine for a conversation on this node. */
  openEngine(
    sessionId: string,
    config: EngineConfig,
    host: EngineHost,
    info: ConversationInfo,
  ): Promise<{ engine: Engine; info: OpenInfo }>;
  /** The avatar started or stopped speaking in a conversation (engines on a remote node decide
   *  barge-in with it; in process they ask the turn loop directly). */
  speaking(conversationId: string, value: boolean): void;
  /** Disconnects the node (remote) — its conversations end. */
  disconnect(reason: string): void;
}

export class NodeLostError extends Error {
  constructor() {
    super('The pipeline node running this conversation went away.');
    this.name = 'NodeLostError';
  }
}
