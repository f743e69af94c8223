// Stand-in for OpenAI-compatible providers: streamed chat completions (SSE, tool calls
// included), the Assistants API v2 (threads, messages, streamed runs) and the Realtime
// WebSocket. It records every request so tests can assert what was in the prompt.
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServerResponse } from 'node:http';
import { sendJson, startHttp, type Recorded, type StandIn } from './http';

export const STAND_IN_KEY = 'sk-stand-in-key-0123456789';

export interface ChatReply {
  /** Text streamed in these pieces. */
  content?: string[];
  /** Or one tool call (the next request then carries its result). */
  toolCall?: { name: string; arguments: string };
  /** Milliseconds before the first chunk. */
  delayMs?: number;
  /** A slow model: the rest of the pieces wait for this after the first one (no timer). */
  holdAfterFirst?: Promise<void>;
  /** A broken stream (issue 34 item 3): `stall` sends the first piece and then nothing, holding
   *  the connection open; `cut` sends the first piece and drops the connection; `garbled` sends
   *  events that are not JSON instead of the pieces; `silent` never answers at all. */
  fault?: 'stall' | 'cut' | 'garbled' | 'silent';
}

export interface OpenAiStandIn extends StandIn {
  /** Decides each chat completion's reply; default: "You asked: {last user message}". */
  reply: (messages: { role: string; content: string | null }[], req: Recorded) => ChatReply;
  chats(): Recorded[];
  realtimeMessages: Record<string, unknown>[];
  realtimeUrl: string;
}

function sse(res: ServerResponse, data: unknown, event?: string): void {
  if (event) res.write(`event: ${event}\n`);
  res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startOpenAiStandIn(port = 0): Promise<OpenAiStandIn> {
  const threads = new Map<string, { role: string; content: string }[]>();
  let nextId = 1;
  const self: Partial<OpenAiStandIn> = {};
  const defaultReply: OpenAiStandIn['reply'] = (messages) => {
    const last = [...messages].reverse().find((m) => m.role === 'user');
    return { content: ['You asked: ', String(last?.content ?? '')] };
  };
  const http = await startHttp(async (req, res) => {
    // What tests read back (end-to-end tests run in another process).
    if (req.method === 'GET' && req.path === '/_stand-in/chats') {
      return sendJson(
        res,
        200,
        http.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.json()),
      );
    }
    if (req.headers.authorization !== `Bearer ${STAND_IN_KEY}`) {
      return sendJson(res, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
    }
    const p = req.path.replace(/^\/v1/, '');
    if (req.method === 'GET' && p === '/models')
      return sendJson(res, 200, { object: 'list', data: [{ id: 'stand-in-model', object: 'model' }] });
    if (req.method === 'POST' && p === '/chat/completions') {
      const body = req.json() as { messages: { role: string; content: string | null }[]; stream?: boolean; model: string };
      const reply = (self.reply ?? defaultReply)(body.messages, req);
      if (reply.fault === 'silent') return; // holds the request until the client gives up
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (reply.delayMs) await sleep(reply.delayMs);
      const id = `chatcmpl-${nextId++}`;
      const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model };
      sse(res, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      if (reply.toolCall) {
        sse(res, {
          ...base,
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [{ index: 0, id: `call_${nextId}`, type: 'function', function: { name: reply.toolCall.name, arguments: '' } }],
              },
              finish_reason: null,
            },
          ],
        });
        sse(res, {
          ...base,
          choices: [
            { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: reply.toolCall.arguments } }] }, finish_reason: null },
          ],
        });
        sse(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
      } else {
        for (const [i, piece] of (reply.content ?? []).entries()) {
          if (i === 1 && reply.fault === 'stall') return; // the connection stays open, silent
          if (i === 1 && reply.fault === 'cut') {
            await sleep(50); // the first piece reaches the client before the connection drops
            return void res.socket?.destroy();
          }
          if (reply.fault === 'garbled') {
            res.write(`data: {"choices":[{"delta":{"content":${piece.length}\u0000\n\n`);
            continue;
          }
          if (i === 1 && reply.holdAfterFirst) await reply.holdAfterFirst;
          if (res.destroyed) return;
          sse(res, { ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
        }
        sse(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      }
      sse(res, '[DONE]');
      return void res.end();
    }
    if (req.method === 'POST' && p === '/threads') {
      if (req.headers['openai-beta'] !== 'assistants=v2') return sendJson(res, 400, { error: { message: 'missing OpenAI-Beta header' } });
      const id = `thread_${nextId++}`;
      threads.set(id, []);
      return sendJson(res, 200, { id, object: 'thread' });
    }
    const msg = /^\/threads\/([^/]+)\/messages$/.exec(p);
    if (req.method === 'POST' && msg) {
      const t = threads.get(msg[1]!);
      if (!t) return sendJson(res, 404, { error: { message: 'No thread found' } });
      const b = req.json() as { role: string; content: string };
      t.push({ role: b.role, content: b.content });
      return sendJson(res, 200, { id: `msg_${nextId++}`, object: 'thread.message', role: b.role });
    }
    const run = /^\/threads\/([^/]+)\/runs$/.exec(p);
    if (req.method === 'POST' && run) {
      const t = threads.get(run[1]!);
      if (!t) return sendJson(res, 404, { error: { message: 'No thread found' } });
      const b = req.json() as { assistant_id: string };
      if (b.assistant_id !== 'asst_stand_in')
        return sendJson(res, 404, { error: { message: `No assistant found with id '${b.assistant_id}'.` } });
      const last = t[t.length - 1]?.content ?? '';
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const runId = `run_${nextId++}`;
      sse(res, { id: runId, object: 'thread.run', status: 'queued' }, 'thread.run.created');
      for (const piece of ['Assistant heard: ', last]) {
        sse(
          res,
          { id: `msg_${nextId}`, object: 'thread.message.delta', delta: { content: [{ index: 0, type: 'text', text: { value: piece } }] } },
          'thread.message.delta',
        );
      }
      t.push({ role: 'assistant', content: `Assistant heard: ${last}` });
      sse(res, { id: runId, object: 'thread.run', status: 'completed' }, 'thread.run.completed');
      sse(res, '[DONE]', 'done');
      return void res.end();
    }
    return sendJson(res, 404, { error: { message: `Unknown path ${req.path}` } });
  }, port);

  // Realtime: the OpenAI Realtime events this product uses.
  const realtimeMessages: Record<string, unknown>[] = [];
  const wss = new WebSocketServer({ noServer: true });
  http.server.on('upgrade', (req, socket, head) => {
    if (!req.url?.startsWith('/v1/realtime') || req.headers.authorization !== `Bearer ${STAND_IN_KEY}`) {
      socket.write('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return socket.destroy();
    }
    wss.handleUpgrade(req, socket, head, (ws) => realtime(ws, new URL(req.url!, 'http://x').searchParams.get('model') ?? ''));
  });
  const realtime = (ws: WebSocket, model: string) => {
    const send = (m: Record<string, unknown>) => ws.send(JSON.stringify(m));
    send({ type: 'session.created', session: { model } });
    let session: Record<string, unknown> = {};
    let lastUserText = '';
    let audioBytes = 0;
    let toolOutput: string | null = null;
    const respond = (text: string) => {
      const rid = `resp_${nextId++}`;
      send({ type: 'response.created', response: { id: rid, status: 'in_progress' } });
      for (const word of text.split(/(?<= )/)) send({ type: 'response.audio_transcript.delta', response_id: rid, delta: word });
      send({ type: 'response.audio.delta', response_id: rid, delta: Buffer.alloc(480).toString('base64') });
      send({ type: 'response.done', response: { id: rid, status: 'completed' } });
    };
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data
      realtimeMessages.push(m);
      switch (m.type) {
        case 'session.update':
          session = { ...session, ...m.session };
          send({ type: 'session.updated', session });
          break;
        case 'conversation.item.create':
          if (m.item?.type === 'message') lastUserText = m.item.content?.[0]?.text ?? '';
          if (m.item?.type === 'function_call_output') toolOutput = m.item.output;
          break;
        case 'input_audio_buffer.append':
          audioBytes += Buffer.from(String(m.audio), 'base64').length;
          if (audioBytes >= 3200) {
            audioBytes = 0;
            send({ type: 'input_audio_buffer.speech_started' });
            send({ type: 'input_audio_buffer.speech_stopped' });
            send({ type: 'conversation.item.input_audio_transcription.completed', transcript: 'hello from audio' });
            respond('I heard your voice.');
          }
          break;
        case 'response.create': {
          const tools = (session.tools as { name: string }[] | undefined) ?? [];
          if (toolOutput !== null) {
            const out = toolOutput;
            toolOutput = null;
            respond(`The function said ${out}`);
          } else if (m.response?.instructions) {
            respond(String(m.response.instructions).replace(/^.*exactly: /, ''));
          } else if (tools.length && lastUserText.startsWith('call ')) {
            const rid = `resp_${nextId++}`;
            send({ type: 'response.created', response: { id: rid } });
            send({
              type: 'response.function_call_arguments.done',
              response_id: rid,
              call_id: `call_${nextId++}`,
              name: lastUserText.slice(5).trim(),
              arguments: JSON.stringify({ a: 2, b: 3 }),
            });
            send({ type: 'response.done', response: { id: rid, status: 'completed' } });
          } else respond(`Realtime heard: ${lastUserText}`);
          break;
        }
        case 'response.cancel':
          break;
      }
    });
  };

  Object.assign(self, {
    ...http,
    reply: defaultReply,
    chats: () => http.requests.filter((r) => r.path.endsWith('/chat/completions')),
    realtimeMessages,
    realtimeUrl: `ws://127.0.0.1:${http.port}/v1/realtime`,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await http.close();
    },
  });
  return self as OpenAiStandIn;
}
