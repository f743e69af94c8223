// Stand-in for the Gemini Live API (WS .../GenerativeService.BidiGenerateContent?key=): the
// first client message must be {setup: {model, ...}}, answered {setupComplete: {}}; a text turn
// ({clientContent: {turns, turnComplete}}) and microphone audio ({realtimeInput: {audio: {data,
// mimeType: audio/pcm;rate=16000}}}) are answered with serverContent: modelTurn parts of
// inlineData (audio/pcm;rate=24000), outputTranscription, inputTranscription, turnComplete.
// Like the real service, its JSON messages arrive as binary WebSocket frames.
import { WebSocketServer } from 'ws';
import { tone } from './openai-audio';
import { sendJson, startHttp, type StandIn } from './http';

export const GEMINI_KEY = 'gemini-live-stand-in-key-0123456789';
export const GEMINI_LIVE_PATH = '/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent';

export interface GeminiLiveStandIn extends StandIn {
  liveUrl: string;
  /** Every client message, parsed. */
  received: Record<string, unknown>[];
  audioBytes: number;
}

export async function startGeminiLiveStandIn(): Promise<GeminiLiveStandIn> {
  const self = { received: [], audioBytes: 0 } as unknown as GeminiLiveStandIn;
  const http = await startHttp((_req, res) => sendJson(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } }));
  const wss = new WebSocketServer({ noServer: true });
  http.server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== GEMINI_LIVE_PATH || url.searchParams.get('key') !== GEMINI_KEY) {
      socket.write('HTTP/1.1 403 Forbidden\r\n\r\n');
      return socket.destroy();
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      let setUp = false;
      let heard = 0;
      const send = (msg: unknown) => ws.send(Buffer.from(JSON.stringify(msg)), { binary: true });
      const answer = (text: string) => {
        send({
          serverContent: {
            modelTurn: { parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data: tone(0.3, 24000).toString('base64') } }] },
          },
        });
        send({ serverContent: { outputTranscription: { text } } });
        send({ serverContent: { turnComplete: true } });
      };
      ws.on('message', (data) => {
        let msg: Record<string, unknown>;
        try {
          msg = JSON.parse(String(data)) as Record<string, unknown>;
        } catch {
          return ws.close(1007, 'Request contains an invalid argument.');
        }
        self.received.push(msg);
        if (!setUp) {
          const setup = msg.setup as { model?: string } | undefined;
          if (!setup?.model?.startsWith('models/')) return ws.close(1007, 'The first message must be setup with a model.');
          setUp = true;
          return send({ setupComplete: {} });
        }
        const content = msg.clientContent as { turns?: { parts?: { text?: string }[] }[]; turnComplete?: boolean } | undefined;
        if (content?.turnComplete) return answer(`Gemini heard: ${content.turns?.at(-1)?.parts?.[0]?.text ?? ''}`);
        const audio = (msg.realtimeInput as { audio?: { data?: string; mimeType?: string } } | undefined)?.audio;
        if (audio?.data && audio.mimeType?.startsWith('audio/pcm')) {
          const bytes = Buffer.from(audio.data, 'base64').length;
          heard += bytes;
          self.audioBytes += bytes;
          if (heard >= 9600) {
            heard = 0;
            send({ serverContent: { inputTranscription: { text: 'hello from audio' } } });
            answer('I heard your voice.');
          }
        }
      });
    });
  });
  const close = http.close;
  return Object.assign(self, http, {
    liveUrl: `ws://127.0.0.1:${http.port}${GEMINI_LIVE_PATH}`,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await close();
    },
  });
}
