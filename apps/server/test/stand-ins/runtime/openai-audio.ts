// Stand-in for the OpenAI audio API, what SPEECH_BASE_URL points at (hosted providers and
// self-hosted speech servers speak it): POST /v1/audio/transcriptions (multipart: file = a WAV,
// model, language, prompt; answers {"text"}) and POST /v1/audio/speech (JSON: model, input, voice,
// response_format; pcm = raw 24 kHz 16-bit mono little-endian). The speech is a tone, loud enough
// for an analyser, 60 ms per character. Importable by the e2e set-up (e2e/support/stand-ins).
// GET /_stand-in/requests gives what it received to tests in another process.
import { sendJson, startHttp, type StandIn } from './http';

export const SPEECH_STAND_IN_KEY = 'sk-speech-stand-in-0123456789';
export const SPEECH_PCM_RATE = 24000;
const SECONDS_PER_CHAR = 0.06;

export interface HeardUtterance {
  model: string;
  language: string | null;
  prompt: string | null;
  /** PCM bytes of the WAV's data chunk. */
  pcmBytes: number;
  sampleRate: number;
}

export interface SpokenRequest {
  model: string;
  input: string;
  voice: string;
  responseFormat: string;
}

export interface OpenAiAudioStandIn extends StandIn {
  /** What the recogniser "hears" next. */
  transcript: string;
  heard: HeardUtterance[];
  spoken: SpokenRequest[];
  /** Fixed delays before answering (benches), and failure modes (bad-input tests). */
  sttDelayMs: number;
  ttsDelayMs: number;
  mode: 'ok' | 'hang' | 'garbage';
}

const unauthorized = {
  error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A tone of `seconds` at 24 kHz, PCM16 little-endian. */
export function tone(seconds: number, rate = SPEECH_PCM_RATE): Buffer {
  const n = Math.max(1, Math.round(seconds * rate));
  const out = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) {
    const envelope = 0.5 + 0.5 * Math.sin((2 * Math.PI * 4 * i) / rate);
    out.writeInt16LE(Math.round(12000 * envelope * Math.sin((2 * Math.PI * 220 * i) / rate)), i * 2);
  }
  return out;
}

/** The data chunk of a PCM WAV file, or null when it is not one. */
function wavData(file: Buffer): { pcm: Buffer; sampleRate: number } | null {
  if (file.length < 44 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE') return null;
  let at = 12;
  let sampleRate = 0;
  while (at + 8 <= file.length) {
    const id = file.toString('ascii', at, at + 4);
    const size = file.readUInt32LE(at + 4);
    if (id === 'fmt ') sampleRate = file.readUInt32LE(at + 12);
    if (id === 'data') return { pcm: file.subarray(at + 8, at + 8 + size), sampleRate };
    at += 8 + size + (size % 2);
  }
  return null;
}

export async function startOpenAiAudioStandIn(port = 0): Promise<OpenAiAudioStandIn> {
  const self = {
    transcript: 'what are your opening hours',
    heard: [],
    spoken: [],
    sttDelayMs: 0,
    ttsDelayMs: 0,
    mode: 'ok',
  } as unknown as OpenAiAudioStandIn;
  const http = await startHttp(async (req, res) => {
    if (req.method === 'GET' && req.path === '/_stand-in/requests') return sendJson(res, 200, { heard: self.heard, spoken: self.spoken });
    if (req.method === 'POST' && req.path === '/_stand-in/transcript') {
      self.transcript = String(req.json().transcript ?? '');
      return sendJson(res, 200, {});
    }
    if (req.headers.authorization !== `Bearer ${SPEECH_STAND_IN_KEY}`) return sendJson(res, 401, unauthorized);
    if (req.method === 'POST' && req.path === '/v1/audio/transcriptions') {
      const form = await new Request('http://stand-in/', {
        method: 'POST',
        headers: { 'content-type': String(req.headers['content-type'] ?? '') },
        body: new Uint8Array(req.body),
      })
        .formData()
        .catch(() => null);
      const file = form?.get('file');
      const model = form?.get('model');
      if (!form || !(file instanceof Blob) || typeof model !== 'string') {
        return sendJson(res, 400, {
          error: {
            message: "'file' and 'model' are required (multipart/form-data).",
            type: 'invalid_request_error',
            param: 'file',
            code: null,
          },
        });
      }
      const wav = wavData(Buffer.from(await file.arrayBuffer()));
      if (!wav)
        return sendJson(res, 400, { error: { message: 'Invalid file format.', type: 'invalid_request_error', param: 'file', code: null } });
      const text = (k: string) => (typeof form.get(k) === 'string' ? String(form.get(k)) : null);
      self.heard.push({ model, language: text('language'), prompt: text('prompt'), pcmBytes: wav.pcm.length, sampleRate: wav.sampleRate });
      if (self.mode === 'hang') return;
      await sleep(self.sttDelayMs);
      if (self.mode === 'garbage') {
        res.setHeader('content-type', 'application/json');
        return void res.end('{"tex');
      }
      return sendJson(res, 200, { text: self.transcript });
    }
    if (req.method === 'POST' && req.path === '/v1/audio/speech') {
      const body = req.json() as { model?: string; input?: string; voice?: string; response_format?: string };
      if (!body?.model || !body.input || !body.voice)
        return sendJson(res, 400, {
          error: { message: 'model, input and voice are required.', type: 'invalid_request_error', param: null, code: null },
        });
      self.spoken.push({ model: body.model, input: body.input, voice: body.voice, responseFormat: body.response_format ?? 'mp3' });
      if (self.mode === 'hang') return;
      await sleep(self.ttsDelayMs);
      if (self.mode === 'garbage') {
        res.setHeader('content-type', 'text/html');
        return void res.end('<html>Bad gateway</html>');
      }
      if (body.response_format !== 'pcm')
        return sendJson(res, 400, {
          error: { message: 'The stand-in speaks pcm only.', type: 'invalid_request_error', param: 'response_format', code: null },
        });
      res.statusCode = 200;
      res.setHeader('content-type', 'audio/pcm');
      return void res.end(tone(body.input.length * SECONDS_PER_CHAR));
    }
    return sendJson(res, 404, { error: { message: 'Not found', type: 'invalid_request_error' } });
  }, port);
  return Object.assign(self, http);
}
