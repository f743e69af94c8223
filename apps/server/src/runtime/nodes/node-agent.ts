// The node side of WS /ws/node: a process started with `npm run node -- --server URL` registers,
// heartbeats, and runs the engines of the conversations the server gives it.
import { randomUUID } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import WebSocket from 'ws';
import { NODE_MAX_FRAME_BYTES, parseServerMessage, type HostOp, type NodeToServer, type ServerToNode } from '@parla/shared/schemas/node';
import type { Engine, EngineConfig, EngineDeps, EngineEvent, EngineHost } from '../types';
import { createEngine } from '../engines';

export interface NodeAgentOptions {
  server: string;
  secret: string;
  name: string;
  capacity: number;
  deps: EngineDeps;
  log: (line: string) => void;
  /** Called when the server connection ends after registration. */
  onClosed?: () => void;
}

interface Running {
  engine: Engine | null;
  speaking: boolean;
  turns: Map<string, AbortController>;
}

/** A push to an engine without server speech: the text, for the player to show and say. */
async function* saidAsText(text: string): AsyncIterable<EngineEvent> {
  yield { type: 'delta', text };
}

function privateIp(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

export class NodeAgent {
  private ws: WebSocket | null = null;
  private readonly running = new Map<string, Running>();
  private heartbeat: NodeJS.Timeout | null = null;
  nodeId: string | null = null;

  constructor(private readonly opts: NodeAgentOptions) {}

  private send(msg: NodeToServer): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** Connects and registers; resolves with the node id the server gave. */
  connect(): Promise<string> {
    const url = new URL('/ws/node', this.opts.server);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${this.opts.secret}` }, maxPayload: NODE_MAX_FRAME_BYTES });
    this.ws = ws;
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        this.send({
          type: 'register',
          name: this.opts.name || hostname(),
          capacity: this.opts.capacity,
          address: hostname(),
          privateIp: privateIp(),
        });
      });
      ws.once('unexpected-response', (_req, res) => reject(new Error(`the server refused the node (HTTP ${res.statusCode})`)));
      ws.once('error', (err) => reject(err));
      ws.on('close', (code, reason) => {
        if (this.heartbeat) clearInterval(this.heartbeat);
        this.opts.log(`disconnected (${code} ${String(reason)})`);
        for (const id of [...this.running.keys()]) void this.closeConversation(id, 'server gone');
        if (this.nodeId) this.opts.onClosed?.();
        reject(new Error('closed before registration'));
      });
      ws.on('message', (data) => {
        const parsed = parseServerMessage(String(data));
        if (!parsed.ok) return this.opts.log(`ignored a malformed frame from the server: ${parsed.error}`);
        const msg = parsed.message;
        if (msg.type === 'registered') {
          this.nodeId = msg.nodeId;
          this.heartbeat = setInterval(() => this.send({ type: 'ping', sessions: this.running.size }), msg.heartbeatMs);
          resolve(msg.nodeId);
          return;
        }
        void this.onMessage(msg);
      });
    });
  }

  private hostFor(sessionId: string): EngineHost {
    const op = (o: HostOp) => this.send({ type: 'host', sessionId, ...o });
    return {
      beginTurn: (turnId) => {
        const id = turnId ?? randomUUID();
        op({ op: 'begin', turnId: id });
        return id;
      },
      emit: (turnId, event) => op({ op: 'emit', turnId, event }),
      endTurn: (turnId, error) => op({ op: 'end', turnId, ...(error ? { error } : {}) }),
      userUtterance: (text) => op({ op: 'utterance', text }),
      transcript: (text, final) => op({ op: 'transcript', text, final }),
      speaking: () => this.running.get(sessionId)?.speaking ?? false,
      interrupt: () => op({ op: 'interrupt' }),
    };
  }

  private async onMessage(msg: ServerToNode): Promise<void> {
    switch (msg.type) {
      case 'open': {
        const running: Running = { engine: null, speaking: false, turns: new Map() };
        this.running.set(msg.sessionId, running);
        try {
          // The envelope (a known kind) is validated; each engine reads its own fields.
          const engine = createEngine(msg.config as EngineConfig, this.opts.deps, this.hostFor(msg.sessionId));
          running.engine = engine;
          const info = (await engine.open?.(msg.info)) ?? {};
          this.send({ type: 'opened', sessionId: msg.sessionId, info });
        } catch (err) {
          this.running.delete(msg.sessionId);
          this.send({ type: 'open_failed', sessionId: msg.sessionId, error: err instanceof Error ? err.message : String(err) });
        }
        break;
      }
      case 'turn':
        await this.runTurn(msg.sessionId, msg.turnId, (engine, signal) =>
          engine.turn({ turnId: msg.turnId, text: msg.text, history: msg.history, context: msg.context, signal }),
        );
        break;
      case 'say':
        await this.runTurn(msg.sessionId, msg.turnId, (engine, signal) =>
          engine.say ? engine.say(msg.text, signal) : saidAsText(msg.text),
        );
        break;
      case 'cancel':
        this.running.get(msg.sessionId)?.turns.get(msg.turnId)?.abort();
        break;
      case 'audio':
        this.running.get(msg.sessionId)?.engine?.audio?.(Buffer.from(msg.audio, 'base64'), msg.sampleRate);
        break;
      case 'speech':
        this.running.get(msg.sessionId)?.engine?.speech?.(msg.event, msg.atMs);
        break;
      case 'speaking': {
        const s = this.running.get(msg.sessionId);
        if (s) s.speaking = msg.value;
        break;
      }
      case 'close':
        await this.closeConversation(msg.sessionId, msg.reason);
        break;
      case 'shutdown':
        this.opts.log(`the server disconnected this node: ${msg.reason}`);
        this.ws?.close(1000);
        break;
      case 'invalid':
        this.opts.log(`the server refused a frame: ${msg.message}`);
        break;
      default:
        break;
    }
  }

  /** Runs one turn (or push) of a conversation's engine, its events and end sent to the server;
   *  the server's `cancel` for its turn id aborts it. */
  private async runTurn(
    sessionId: string,
    turnId: string,
    start: (engine: Engine, signal: AbortSignal) => AsyncIterable<EngineEvent>,
  ): Promise<void> {
    const s = this.running.get(sessionId);
    if (!s?.engine) return this.send({ type: 'turn_end', sessionId, turnId, error: 'no such session' });
    const abort = new AbortController();
    s.turns.set(turnId, abort);
    try {
      for await (const event of start(s.engine, abort.signal)) {
        if (abort.signal.aborted) break;
        this.send({ type: 'event', sessionId, turnId, event });
      }
      this.send({ type: 'turn_end', sessionId, turnId });
    } catch (err) {
      this.send({ type: 'turn_end', sessionId, turnId, error: err instanceof Error ? err.message : String(err) });
    } finally {
      s.turns.delete(turnId);
    }
  }

  private async closeConversation(sessionId: string, reason: string): Promise<void> {
    const s = this.running.get(sessionId);
    if (!s) return;
    this.running.delete(sessionId);
    for (const a of s.turns.values()) a.abort();
    await s.engine?.close(reason).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const id of [...this.running.keys()]) await this.closeConversation(id, 'node stopping');
    this.ws?.close(1000);
  }
}
