// Stand-ins for speech providers: Deepgram pre-recorded transcription (POST /v1/listen with
// linear16 audio) and streaming transcription (WS /v1/listen: interim results, Finalize), ElevenLabs text-to-speech with timestamps, and ElevenLabs Conversational AI's
// signed URL and conversation token endpoints.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { sendJson, startHttp, type StandIn } from './http';

export const DEEPGRAM_KEY = 'deepgram-key-0123456789';
export const ELEVEN_KEY = 'eleven-key-0123456789abcdef';

export interface SpeechStandIn extends StandIn {
  /** What the STT stand-in "hears" next. */
  transcript: string;
  audioBytesReceived: number;
  /** Audio bytes received over the streaming socket, and whether streaming is offered. */
  streamedBytes: number;
  streaming: boolean;
  /** The query of every streaming connection (context phrases are checked in it). */
  streamQueries: URLSearchParams[];
  /** How long the streaming socket's handshake takes (a slow network or a loaded host). */
  upgradeDelayMs: number;
}

export async function startSpeechStandIn(): Promise<SpeechStandIn> {
  const self = {
    transcript: 'what are your opening hours',
    audioBytesReceived: 0,
    streamedBytes: 0,
    streaming: true,
    streamQueries: [],
    upgradeDelayMs: 0,
  } as unknown as SpeechStandIn;
  const http = await startHttp((req, res) => {
    if (req.path === '/v1/listen') {
      if (req.headers.authorization !== `Token ${DEEPGRAM_KEY}`)
        return sendJson(res, 401, { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.' });
      if (req.query.get('encoding') !== 'linear16' || !req.query.get('sample_rate'))
        return sendJson(res, 400, { err_code: 'Bad Request', err_msg: 'encoding and sample_rate are required for raw audio' });
      self.audioBytesReceived += req.body.length;
      return sendJson(res, 200, {
        metadata: { duration: req.body.length / 32000 },
        results: { channels: [{ alternatives: [{ transcript: self.transcript, confidence: 0.98 }] }] },
      });
    }
    if (req.headers['xi-api-key'] !== ELEVEN_KEY)
      return sendJson(res, 401, { detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
    const tts = /^\/v1\/text-to-speech\/([^/]+)\/with-timestamps$/.exec(req.path);
    if (tts) {
      const text = String((req.json() as { text: string }).text);
      const chars = [...text];
      const per = 0.06;
      return sendJson(res, 200, {
        audio_base64: Buffer.alloc(chars.length * 960).toString('base64'),
        alignment: {
          characters: chars,
          character_start_times_seconds: chars.map((_, i) => i * per),
          character_end_times_seconds: chars.map((_, i) => (i + 1) * per),
        },
      });
    }
    if (req.path === '/v1/convai/conversation/get-signed-url') {
      return sendJson(res, 200, {
        signed_url: `wss://api.elevenlabs.io/v1/convai/conversation?agent_id=${req.query.get('agent_id')}&conversation_signature=sig123`,
      });
    }
    if (req.path === '/v1/convai/conversation/token')
      return sendJson(res, 200, { token: `eleven-webrtc-token-${req.query.get('agent_id')}` });
    return sendJson(res, 404, { detail: 'Not found' });
  });
  const wss = new WebSocketServer({ noServer: true });
  http.server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (
      !self.streaming ||
      url.pathname !== '/v1/listen' ||
      req.headers.authorization !== `Token ${DEEPGRAM_KEY}` ||
      url.searchParams.get('encoding') !== 'linear16'
    ) {
      socket.write('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return socket.destroy();
    }
    self.streamQueries.push(url.searchParams);
    setTimeout(() => upgrade(req, socket, head), self.upgradeDelayMs);
  });
  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      const results = (text: string, final: boolean, fromFinalize = false) =>
        ws.send(
          JSON.stringify({
            type: 'Results',
            is_final: final,
            speech_final: final,
            from_finalize: fromFinalize,
            channel: { alternatives: [{ transcript: text, confidence: 0.97 }] },
          }),
        );
      let heard = 0;
      ws.on('message', (data, isBinary) => {
        if (isBinary) {
          heard += (data as Buffer).length;
          self.streamedBytes += (data as Buffer).length;
          if (heard >= 3200) results(self.transcript.split(' ').slice(0, 2).join(' '), false);
          return;
        }
        const msg = JSON.parse(String(data)) as { type: string };
        if (msg.type === 'Finalize') {
          results(heard ? self.transcript : '', true, true);
          heard = 0;
        }
        if (msg.type === 'CloseStream') ws.close(1000);
      });
    });
  const close = http.close;
  return Object.assign(self, http, {
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await close();
    },
  });
}
