// The node inside the server process: engines run here, with the server's outbound client.
import type { Engine, EngineConfig, EngineDeps, EngineHost, OpenInfo, ConversationInfo } from '../types';
import { createEngine } from '../engines';
import type { NodeHandle } from './node';

export class LocalNode implements NodeHandle {
  readonly inProcess = true;
  readonly conversations = new Set<string>();

  constructor(
    readonly id: string,
    readonly name: string,
    readonly capacity: number,
    private readonly deps: EngineDeps,
  ) {}

  async openEngine(
    sessionId: string,
    config: EngineConfig,
    host: EngineHost,
    info: ConversationInfo,
  ): Promise<{ engine: Engine; info: OpenInfo }> {
    const engine = createEngine(config, this.deps, host);
    try {
      const opened = (await engine.open?.(info)) ?? {};
      this.conversations.add(sessionId);
      return { engine, info: opened };
    } catch (err) {
      await engine.close('open failed').catch(() => undefined);
      throw err;
    }
  }

  speaking(): void {}

  disconnect(): void {}
}
