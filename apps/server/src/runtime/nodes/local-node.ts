// The node inside the server process: engines run here, with the server's outbound client.
import type { Engine, EngineConfig, EngineDeps, EngineHost, OpenInfo, SessionInfo } from '../types';
import { createEngine } from '../engines';
import type { NodeHandle } from './node';

export class LocalNode implements NodeHandle {
  readonly inProcess = true;
  readonly sessions = new Set<string>();

  constructor(readonly id: string, readonly name: string, readonly capacity: number, private readonly deps: EngineDeps) {}

  async openEngine(sessionId: string, config: EngineConfig, host: EngineHost, info: SessionInfo): Promise<{ engine: Engine; info: OpenInfo }> {
    const engine = createEngine(config, this.deps, host);
    try {
      const opened = (await engine.open?.(info)) ?? {};
      this.sessions.add(sessionId);
      return { engine, info: opened };
    } catch (err) {
      await engine.close('open failed').catch(() => undefined);
      throw err;
    }
  }

  disconnect(): void {}
}
