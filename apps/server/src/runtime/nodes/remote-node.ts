// A node in another process, connected over WS /ws/node: each conversation's engine is a proxy
// whose turns, audio and host callbacks travel as messages. When the socket closes or the node
// stops heartbeating, every pending turn fails with NodeLostError.
import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import type { Engine, EngineConfig, EngineEvent, EngineHost, OpenInfo, ConversationInfo, TurnInput } from '../types';
import { AsyncQueue } from '../engines/queue';
import { NodeLostError, type NodeHandle } from './node';
import type { NodeToServer, ServerToNode } from '@parla/shared/schemas/node';

interface RemoteSession {
  host: EngineHost;
  turns: Map<string, AsyncQueue<EngineEvent>>;
  opening?: { resolve: (info: OpenInfo) => void; reject: (err: Error) => void };
}

export class RemoteNode implements NodeHandle {
  readonly inProcess = false;
  readonly conversations = new Set<string>();
  private readonly remote = new Map<string, RemoteSession>();
  lastPing: number;
  lost = false;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly capacity: number,
    private readonly socket: WebSocket,
    now: number,
  ) {
    this.lastPing = now;
  }

  send(msg: ServerToNode): void {
    if (!this.lost && this.socket.readyState === 1) this.socket.send(JSON.stringify(msg));
  }

  async openEngine(
    sessionId: string,
    config: EngineConfig,
    host: EngineHost,
    info: ConversationInfo,
  ): Promise<{ engine: Engine; info: OpenInfo }> {
    if (this.lost) throw new NodeLostError();
    const session: RemoteSession = { host, turns: new Map() };
    this.remote.set(sessionId, session);
    this.conversations.add(sessionId);
    const opened = await new Promise<OpenInfo>((resolve, reject) => {
      session.opening = { resolve, reject };
      this.send({ type: 'open', sessionId, config, info });
    }).catch((err: unknown) => {
      this.remote.delete(sessionId);
      this.conversations.delete(sessionId);
      throw err;
    });
    return { engine: this.proxy(sessionId, config.kind, session), info: opened };
  }

  private proxy(sessionId: string, kind: EngineConfig['kind'], session: RemoteSession): Engine {
    return {
      kind,
      turn: (input: TurnInput) =>
        this.stream(sessionId, session, input.turnId, input.signal, {
          type: 'turn',
          sessionId,
          turnId: input.turnId,
          text: input.text,
          history: input.history,
          context: input.context,
        }),
      // A push is said by the node's engine (its server speech), as a turn of its own.
      say: (text: string, signal: AbortSignal) => {
        const turnId = randomUUID();
        return this.stream(sessionId, session, turnId, signal, { type: 'say', sessionId, turnId, text });
      },
      audio: (pcm: Buffer, sampleRate: number) => this.send({ type: 'audio', sessionId, audio: pcm.toString('base64'), sampleRate }),
      speech: (event: 'start' | 'end', atMs: number) => this.send({ type: 'speech', sessionId, event, atMs }),
      close: async (reason: string) => {
        this.send({ type: 'close', sessionId, reason });
        for (const q of session.turns.values()) q.end();
        this.remote.delete(sessionId);
        this.conversations.delete(sessionId);
      },
    };
  }

  /** Sends a turn (or push) to the node; its events come back into the returned queue. */
  private stream(
    sessionId: string,
    session: RemoteSession,
    turnId: string,
    signal: AbortSignal,
    msg: ServerToNode,
  ): AsyncQueue<EngineEvent> {
    const q = new AsyncQueue<EngineEvent>();
    if (this.lost) {
      q.fail(new NodeLostError());
      return q;
    }
    session.turns.set(turnId, q);
    signal.addEventListener('abort', () => {
      this.send({ type: 'cancel', sessionId, turnId });
      session.turns.delete(turnId);
      q.end();
    });
    this.send(msg);
    return q;
  }

  /** The avatar started or stopped speaking (engines on the node decide barge-in with it). */
  speaking(sessionId: string, value: boolean): void {
    if (this.remote.has(sessionId)) this.send({ type: 'speaking', sessionId, value });
  }

  handle(msg: NodeToServer): void {
    if (msg.type === 'register' || msg.type === 'ping') return;
    const s = this.remote.get(msg.sessionId);
    if (!s) return;
    switch (msg.type) {
      case 'opened':
        s.opening?.resolve(msg.info ?? {});
        s.opening = undefined;
        break;
      case 'open_failed':
        s.opening?.reject(new Error(msg.error));
        s.opening = undefined;
        break;
      case 'event':
        s.turns.get(msg.turnId)?.push(msg.event);
        break;
      case 'turn_end': {
        const q = s.turns.get(msg.turnId);
        s.turns.delete(msg.turnId);
        if (msg.error) q?.fail(new Error(msg.error));
        else q?.end();
        break;
      }
      case 'host':
        if (msg.op === 'begin') s.host.beginTurn(msg.turnId);
        else if (msg.op === 'emit') s.host.emit(msg.turnId, msg.event);
        else if (msg.op === 'end') s.host.endTurn(msg.turnId, msg.error);
        else if (msg.op === 'utterance') s.host.userUtterance(msg.text);
        else if (msg.op === 'transcript') s.host.transcript(msg.text, msg.final);
        else if (msg.op === 'interrupt') s.host.interrupt();
        break;
    }
  }

  /** The node is gone: every open engine and pending turn fails. */
  markLost(): void {
    if (this.lost) return;
    this.lost = true;
    for (const s of this.remote.values()) {
      s.opening?.reject(new NodeLostError());
      for (const q of s.turns.values()) q.fail(new NodeLostError());
    }
    this.remote.clear();
  }

  disconnect(reason: string): void {
    this.send({ type: 'shutdown', reason });
    this.markLost();
    try {
      this.socket.close(4000, reason.slice(0, 100));
    } catch {
      this.socket.terminate();
    }
  }
}
