// A pipeline node as the server sees it: where a conversation's engine runs. The in-process
// node runs engines here; a remote node runs them in its own process over WS /ws/node.
import type { Engine, EngineConfig, EngineHost, OpenInfo, SessionInfo } from '../types';

export interface NodeHandle {
  readonly id: string;
  readonly name: string;
  readonly inProcess: boolean;
  readonly capacity: number;
  readonly sessions: Set<string>;
  /** Opens an engine for a conversation on this node. */
  openEngine(sessionId: string, config: EngineConfig, host: EngineHost, info: SessionInfo): Promise<{ engine: Engine; info: OpenInfo }>;
  /** Disconnects the node (remote) — its conversations end. */
  disconnect(reason: string): void;
}

export class NodeLostError extends Error {
  constructor() {
    super('The pipeline node running this conversation went away.');
    this.name = 'NodeLostError';
  }
}
