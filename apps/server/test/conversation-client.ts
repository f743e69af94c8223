// A conversation client for API tests: opens WS /ws/conversation on a listening test server and
// collects the server's messages.
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { ServerMessage } from '@parla/shared/schemas/conversation';
import { decodeAudioFrame, type AudioFrameHeader } from '@parla/shared/audio-frames';
import type { TestServer } from './harness';
import type { AccessRequest, ResolvedAvatar } from '../src/runtime/avatar';
import { DEFAULT_LIMITS } from '../src/runtime/avatar';
import { AppError } from '../src/lib/errors';
import type { EngineConfig, RetrievedChunk } from '../src/runtime/types';

export async function listen(server: TestServer): Promise<string> {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (server.app.server.address() as AddressInfo).port;
  return `127.0.0.1:${port}`;
}

export interface TestConversation {
  ws: WebSocket;
  messages: ServerMessage[];
  /** The binary audio frames received (decision 611), decoded, with when they came. */
  audio: { header: AudioFrameHeader; bytes: number; at: number }[];
  closed: Promise<{ code: number; reason: string }>;
  next<T extends ServerMessage['type']>(
    type: T,
    pred?: (m: Extract<ServerMessage, { type: T }>) => boolean,
    timeoutMs?: number,
  ): Promise<Extract<ServerMessage, { type: T }>>;
  send(msg: Record<string, unknown>): void;
  /** Sends a binary frame (microphone audio). */
  sendBinary(data: Buffer): void;
  /** Resolves once `count` audio frames have come (all of them). */
  audioFrames(count: number, timeoutMs?: number): Promise<TestConversation['audio']>;
  /** Sends user_text and waits for the reply's assistant_done. */
  ask(text: string, timeoutMs?: number): Promise<Extract<ServerMessage, { type: 'assistant_done' }>>;
}

const opened = new Set<WebSocket>();

/** Closes every conversation a test opened (afterEach), so one failure does not leak into the next. */
export async function closeAll(): Promise<void> {
  const list = [...opened];
  opened.clear();
  await Promise.all(
    list.map((ws) =>
      ws.readyState === WebSocket.CLOSED
        ? undefined
        : new Promise<void>((resolve) => {
            ws.once('close', () => resolve());
            ws.close();
          }),
    ),
  );
}

export async function connect(
  host: string,
  query: Record<string, string>,
  hello: Record<string, unknown> | null = { type: 'hello', deviceId: 'device-1', userName: 'Ada' },
  headers: Record<string, string> = {},
): Promise<TestConversation> {
  const ws = new WebSocket(`ws://${host}/ws/conversation?${new URLSearchParams(query)}`, { headers });
  opened.add(ws);
  const messages: ServerMessage[] = [];
  const audio: TestConversation['audio'] = [];
  const waiters: (() => void)[] = [];
  let consumed = 0;
  ws.on('message', (data, isBinary) => {
    if (isBinary) {
      const frame = decodeAudioFrame(data as Buffer);
      if (!frame.ok) throw new Error(`the server sent a malformed audio frame: ${frame.error}`);
      audio.push({ header: frame.header, bytes: frame.audio.length, at: performance.now() });
    } else messages.push(JSON.parse(String(data)) as ServerMessage);
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => {
      resolve({ code, reason: String(reason) });
      for (const w of waiters.splice(0)) w();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  if (hello) ws.send(JSON.stringify(hello));
  const c: TestConversation = {
    ws,
    messages,
    audio,
    closed,
    next: (type, pred, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} message; got ${JSON.stringify(messages.slice(consumed))}`)), timeoutMs);
        const check = () => {
          for (let i = consumed; i < messages.length; i++) {
            const m = messages[i]!;
            if (m.type === type && (!pred || pred(m as never))) {
              consumed = i + 1;
              clearTimeout(timer);
              return resolve(m as never);
            }
          }
          if (ws.readyState === WebSocket.CLOSED) {
            clearTimeout(timer);
            return reject(new Error(`closed before ${type}; got ${JSON.stringify(messages.slice(consumed))}`));
          }
          waiters.push(check);
        };
        check();
      }),
    send: (msg) => ws.send(JSON.stringify(msg)),
    sendBinary: (data) => ws.send(data, { binary: true }),
    audioFrames: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${audio.length} of ${count} audio frames; messages ${JSON.stringify(messages)}`)),
          timeoutMs,
        );
        const check = () => {
          if (audio.length >= count) {
            clearTimeout(timer);
            return resolve(audio);
          }
          if (ws.readyState === WebSocket.CLOSED) {
            clearTimeout(timer);
            return reject(new Error(`closed with ${audio.length} of ${count} audio frames`));
          }
          waiters.push(check);
        };
        check();
      }),
    ask: async (text, timeoutMs) => {
      ws.send(JSON.stringify({ type: 'user_text', text }));
      return c.next('assistant_done', undefined, timeoutMs);
    },
  };
  return c;
}

/** A resolver over a fixed table of avatars (the real one maps saved avatars). */
export function testAvatars(
  server: TestServer,
  avatars: Record<string, Partial<ResolvedAvatar> & { ownerId: string; engine?: EngineConfig }>,
  retrieve?: (query: string) => RetrievedChunk[],
) {
  server.app.runtime.hooks = {
    resolveAvatar: async (_ctx, req: AccessRequest) => {
      const a = avatars[req.avatarId];
      if (!a) throw AppError.notFound('Avatar');
      if (a.id === 'private' && req.token !== 'good-token') throw AppError.invalidToken();
      return {
        id: req.avatarId,
        name: `Avatar ${req.avatarId}`,
        type: '2d',
        engineName: 'Echo',
        engine: { kind: 'echo' },
        limits: DEFAULT_LIMITS,
        retrieval: null,
        allowedOrigins: null,
        sendHistory: true,
        ...a,
        oauthAppId: a.oauthAppId ?? null,
      };
    },
    retrieve: async (_ctx, _owner, _ids, query) => retrieve?.(query) ?? [],
    oauthAppOf: async (_ctx, avatarId) => {
      const a = avatars[avatarId];
      return a?.oauthAppId ? { ownerId: a.ownerId, appId: a.oauthAppId } : null;
    },
  };
}
