// A stand-in ElevenLabs Conversational AI agent on loopback, speaking the real protocol:
//  - GET /v1/convai/conversation/get-signed-url?agent_id= (xi-api-key) → a signed URL that points
//    back at this stand-in; GET /v1/convai/conversation/token?agent_id= → a WebRTC token.
//  - WS /v1/convai/conversation?agent_id=&conversation_signature= (a signature it issued, once):
//    conversation_initiation_client_data → conversation_initiation_metadata (pcm_16000 both ways),
//    then a greeting (agent_response + audio events with character alignment) and a ping; a
//    user_message is answered ("You said: …") with audio that has no alignment; microphone audio
//    (user_audio_chunk) with 0.2 s that is not silent becomes a user_transcript and is answered;
//    a user_message while the agent is still talking first sends an interruption.
//  - GET /_stand-in/conversations: what each conversation received (for assertions).
// Other requests go to `fallback` (e.g. the brain's provider stand-in for voices and agent checks).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';

export const AGENT_GREETING = 'Hello! I am your ElevenLabs agent. How can I help you today?';
export const AGENT_HEARD = 'Hello from the microphone';
const SAMPLE_RATE = 16000;
/** Seconds of speech per character of the stand-in's replies. */
const CHAR_SECONDS = 0.055;
/** Characters per audio event. */
const CHARS_PER_EVENT = 12;

export interface AgentConversation {
  id: string;
  agentId: string;
  initiation: Record<string, unknown> | null;
  userMessages: string[];
  audioBytes: number;
  /** Loudest 100 ms of microphone audio received (RMS, 0..1). */
  loudestRms: number;
  pongs: number[];
  userActivity: number;
  closed: boolean;
}

export interface ElevenLabsAgentStandIn {
  port: number;
  url: string;
  /** host:port for OUTBOUND_ALLOW. */
  allow: string;
  conversations: AgentConversation[];
  close(): Promise<void>;
}

export interface ElevenLabsAgentOptions {
  port?: number;
  apiKey: string;
  /** Requests this stand-in does not serve; returns false when it does not either. */
  fallback?: (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) => boolean;
}

/** A voice-like signal for a text: one syllable-shaped burst per character, silent on spaces. */
export function speech(text: string): Buffer {
  const per = Math.round(CHAR_SECONDS * SAMPLE_RATE);
  const out = Buffer.alloc(text.length * per * 2);
  [...text].forEach((ch, i) => {
    const loud = /[\p{L}\p{N}]/u.test(ch) ? (/[aeiouAEIOU]/.test(ch) ? 0.5 : 0.25) : 0;
    const pitch = 140 + (ch.charCodeAt(0) % 7) * 15;
    for (let k = 0; k < per; k++) {
      const env = Math.sin((Math.PI * k) / per);
      const t = (i * per + k) / SAMPLE_RATE;
      const s = loud * env * (Math.sin(2 * Math.PI * pitch * t) + 0.4 * Math.sin(2 * Math.PI * pitch * 3 * t));
      out.writeInt16LE(Math.max(-32767, Math.min(32767, Math.round(s * 20000))), (i * per + k) * 2);
    }
  });
  return out;
}

function rms(pcm: Buffer): number {
  let sum = 0;
  const n = pcm.length >> 1;
  for (let i = 0; i < n; i++) sum += (pcm.readInt16LE(i * 2) / 32768) ** 2;
  return n ? Math.sqrt(sum / n) : 0;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startElevenLabsAgentStandIn(opts: ElevenLabsAgentOptions): Promise<ElevenLabsAgentStandIn> {
  const conversations: AgentConversation[] = [];
  const signatures = new Map<string, string>();
  let base = '';

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const q = url.searchParams;
    if (url.pathname === '/_stand-in/conversations') return json(res, 200, conversations);
    const signedUrl = url.pathname === '/v1/convai/conversation/get-signed-url';
    const token = url.pathname === '/v1/convai/conversation/token';
    // A fallback that knows agents of its own (the brain form's checks) answers for tokens first.
    if (token && opts.fallback?.(req, res, url.pathname, q)) return;
    if (signedUrl || token) {
      if (req.headers['xi-api-key'] !== opts.apiKey) {
        if (opts.fallback?.(req, res, url.pathname, q)) return;
        return json(res, 401, { detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
      }
      const agentId = q.get('agent_id') ?? '';
      if (!agentId) return json(res, 422, { detail: [{ loc: ['query', 'agent_id'], msg: 'field required', type: 'value_error.missing' }] });
      if (token) return json(res, 200, { token: `standin-webrtc-token-${agentId}` });
      const signature = randomBytes(12).toString('hex');
      signatures.set(signature, agentId);
      return json(res, 200, {
        signed_url: `${base.replace(/^http/, 'ws')}/v1/convai/conversation?agent_id=${encodeURIComponent(agentId)}&conversation_signature=${signature}`,
      });
    }
    if (opts.fallback?.(req, res, url.pathname, q)) return;
    json(res, 404, { detail: 'Not Found' });
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const signature = url.searchParams.get('conversation_signature') ?? '';
    const agentId = url.searchParams.get('agent_id') ?? '';
    if (url.pathname !== '/v1/convai/conversation' || signatures.get(signature) !== agentId) {
      socket.write('HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\n\r\n{"detail":"Invalid conversation signature"}');
      return socket.destroy();
    }
    signatures.delete(signature);
    wss.handleUpgrade(req, socket, head, (ws) => converse(ws, agentId));
  });

  function converse(ws: WebSocket, agentId: string): void {
    const c: AgentConversation = {
      id: `conv_${randomBytes(8).toString('hex')}`,
      agentId,
      initiation: null,
      userMessages: [],
      audioBytes: 0,
      loudestRms: 0,
      pongs: [],
      userActivity: 0,
      closed: false,
    };
    conversations.push(c);
    let eventId = 0;
    let speakingUntil = 0;
    let heard = 0;
    let transcribed = false;
    let mic = Buffer.alloc(0);
    const send = (msg: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(msg));

    /** One reply: its text, then its audio in events of a few characters each. */
    const say = (text: string, aligned: boolean) => {
      const id = ++eventId;
      send({ type: 'agent_response', agent_response_event: { agent_response: text, event_id: id } });
      for (let at = 0; at < text.length; at += CHARS_PER_EVENT) {
        const part = text.slice(at, at + CHARS_PER_EVENT);
        const chars = [...part];
        send({
          type: 'audio',
          audio_event: {
            audio_base_64: speech(part).toString('base64'),
            event_id: id,
            ...(aligned
              ? {
                  alignment: {
                    chars,
                    char_start_times_ms: chars.map((_, i) => Math.round(i * CHAR_SECONDS * 1000)),
                    char_durations_ms: chars.map(() => Math.round(CHAR_SECONDS * 1000)),
                  },
                }
              : {}),
          },
        });
      }
      speakingUntil = Date.now() + text.length * CHAR_SECONDS * 1000;
    };

    const answer = (text: string, aligned: boolean) => {
      if (Date.now() < speakingUntil) send({ type: 'interruption', interruption_event: { event_id: eventId + 1 } });
      say(text, aligned);
    };

    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(String(data)) as Record<string, unknown>;
      } catch {
        return ws.close(1003, 'Invalid JSON');
      }
      if (typeof msg.user_audio_chunk === 'string') {
        const pcm = Buffer.from(msg.user_audio_chunk, 'base64');
        c.audioBytes += pcm.length;
        mic = Buffer.concat([mic, pcm]);
        while (mic.length >= 3200) {
          const level = rms(mic.subarray(0, 3200));
          mic = mic.subarray(3200);
          c.loudestRms = Math.max(c.loudestRms, level);
          if (level > 0.01) heard += 3200;
        }
        if (!transcribed && heard >= 6400) {
          transcribed = true;
          send({ type: 'user_transcript', user_transcription_event: { user_transcript: AGENT_HEARD, event_id: eventId + 1 } });
          answer(`I heard you say: ${AGENT_HEARD.toLowerCase()}.`, true);
        }
        return;
      }
      switch (msg.type) {
        case 'conversation_initiation_client_data':
          c.initiation = msg;
          send({
            type: 'conversation_initiation_metadata',
            conversation_initiation_metadata_event: {
              conversation_id: c.id,
              agent_output_audio_format: `pcm_${SAMPLE_RATE}`,
              user_input_audio_format: `pcm_${SAMPLE_RATE}`,
            },
          });
          send({ type: 'ping', ping_event: { event_id: 1, ping_ms: null } });
          say(AGENT_GREETING, true);
          return;
        case 'pong':
          c.pongs.push(Number(msg.event_id));
          return;
        case 'user_message': {
          const text = String(msg.text ?? '').trim();
          if (!text) return;
          c.userMessages.push(text);
          answer(`You said: ${text}`, false);
          return;
        }
        case 'user_activity':
          c.userActivity++;
          return;
        default:
          return;
      }
    });
    ws.on('close', () => (c.closed = true));
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    port,
    url: base,
    allow: `127.0.0.1:${port}`,
    conversations,
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
