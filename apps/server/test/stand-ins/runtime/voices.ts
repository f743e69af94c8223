// Stand-ins for the speech providers of the Brain tab beyond Deepgram and ElevenLabs (those are
// in speech.ts), each speaking its real wire protocol, recording what it received:
// - Amazon Polly SynthesizeSpeech: POST /v1/speech, SigV4-signed (checked against the secret),
//   JSON {Engine, OutputFormat: pcm, SampleRate, Text, TextType, VoiceId} → raw PCM, and with
//   OutputFormat json + SpeechMarkTypes → line-delimited speech marks {time, type, start, end,
//   value} (a word mark per word, a viseme mark per letter, times matching the PCM's length);
// - Neuphonic: POST /sse/speak/{lang} with X-API-KEY → server-sent events of base64 PCM;
// - Azure TTS: POST /cognitiveservices/v1, SSML, X-Microsoft-OutputFormat raw-16khz-16bit-mono-pcm;
// - Cartesia: POST /tts/bytes with X-API-Key and Cartesia-Version → raw pcm_s16le;
// - Azure fast transcription: POST /speechtotext/transcriptions:transcribe (multipart audio +
//   definition) → {combinedPhrases: [{text}]};
// - Google Speech-to-Text: POST /v1/speech:recognize?key= → {results: [{alternatives: [{transcript}]}]}.
import type { ServerResponse } from 'node:http';
import { signAws } from '../../../src/lib/aws-sign';
import { tone } from './openai-audio';
import { sendJson, startHttp, type StandIn } from './http';

export const VOICE_KEYS = {
  pollyAccess: 'AKIASTANDIN000000001',
  pollySecret: 'polly-secret-stand-in-0123456789abcdef',
  neuphonic: 'neuphonic-stand-in-key-0123456789',
  azure: 'azure-stand-in-key-0123456789abcdef',
  cartesia: 'cartesia-stand-in-key-0123456789',
  google: 'google-stand-in-key-0123456789',
} as const;

export interface VoicesStandIn extends StandIn {
  transcript: string;
  /** Texts each TTS was asked to say, by provider. */
  said: Record<'polly' | 'neuphonic' | 'azure' | 'cartesia', string[]>;
  /** SpeechMarkTypes of each Polly speech-marks request. */
  markTypes: string[][];
  /** Azure's definitions and Google's configs as received. */
  azureDefinitions: Record<string, unknown>[];
  googleConfigs: Record<string, unknown>[];
}

const CREDENTIAL =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([a-z0-9-]+)\/polly\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

function pcm(res: ServerResponse, text: string, rate: number, type = 'audio/pcm'): void {
  res.statusCode = 200;
  res.setHeader('content-type', type);
  res.end(tone(text.length * 0.05, rate));
}

/** Polly-style speech marks for `text` spoken at 50 ms a character (the PCM `pcm` answers). */
function speechMarks(text: string, types: string[]): string {
  const lines: object[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const at = (m.index ?? 0) * 50;
    if (types.includes('word')) lines.push({ time: at, type: 'word', start: m.index, end: (m.index ?? 0) + m[0].length, value: m[0] });
    if (!types.includes('viseme')) continue;
    [...m[0].toLowerCase()].forEach((ch, i) => {
      const value = 'aeiou'.includes(ch) ? ch : 'pbm'.includes(ch) ? 'p' : /[a-z]/.test(ch) ? 't' : 'sil';
      lines.push({ time: at + i * 50, type: 'viseme', value });
    });
  }
  return lines.map((l) => JSON.stringify(l)).join('\n');
}

export async function startVoicesStandIn(): Promise<VoicesStandIn> {
  const self = {
    transcript: 'book a table for two',
    said: { polly: [], neuphonic: [], azure: [], cartesia: [] },
    markTypes: [],
    azureDefinitions: [],
    googleConfigs: [],
  } as unknown as VoicesStandIn;
  const http = await startHttp(async (req, res) => {
    const h = (name: string) => String(req.headers[name] ?? '');
    if (req.method === 'POST' && req.path === '/v1/speech') {
      const auth = CREDENTIAL.exec(h('authorization'));
      const date = h('x-amz-date');
      if (!auth || auth[1] !== VOICE_KEYS.pollyAccess || !date)
        return sendJson(res, 403, { message: 'The security token included in the request is invalid.' });
      const now = new Date(
        `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
      );
      const url = new URL(`http://${h('host')}${req.path}`);
      const expected = signAws({
        method: 'POST',
        url,
        region: auth[3]!,
        service: 'polly',
        accessKeyId: VOICE_KEYS.pollyAccess,
        secretAccessKey: VOICE_KEYS.pollySecret,
        body: req.body.toString('utf8'),
        headers: { 'content-type': h('content-type') },
        now,
      });
      if (expected.signature !== auth[5])
        return sendJson(res, 403, { message: 'The request signature we calculated does not match the signature you provided.' });
      const b = req.json() as {
        Text?: string;
        VoiceId?: string;
        OutputFormat?: string;
        SampleRate?: string;
        Engine?: string;
        SpeechMarkTypes?: string[];
      };
      if (b.Text && b.VoiceId && b.OutputFormat === 'json' && b.SpeechMarkTypes?.length) {
        self.markTypes.push(b.SpeechMarkTypes);
        return void res.writeHead(200, { 'content-type': 'application/x-json-stream' }).end(speechMarks(b.Text, b.SpeechMarkTypes));
      }
      if (!b.Text || !b.VoiceId || b.OutputFormat !== 'pcm')
        return sendJson(res, 400, { message: 'Text, VoiceId and OutputFormat are required.' });
      self.said.polly.push(`${b.VoiceId}/${b.Engine}: ${b.Text}`);
      return pcm(res, b.Text, Number(b.SampleRate ?? 16000));
    }
    const sse = /^\/sse\/speak\/([a-z-]+)$/.exec(req.path);
    if (req.method === 'POST' && sse) {
      if (h('x-api-key') !== VOICE_KEYS.neuphonic) return sendJson(res, 403, { detail: 'Invalid API key.' });
      const b = req.json() as { text?: string; sampling_rate?: number; encoding?: string };
      if (!b.text) return sendJson(res, 422, { detail: 'text is required' });
      self.said.neuphonic.push(`${sse[1]}: ${b.text}`);
      const audio = tone(b.text.length * 0.05, b.sampling_rate ?? 22050);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let at = 0; at < audio.length; at += 8000)
        res.write(
          `data: ${JSON.stringify({ status_code: 200, data: { audio: audio.subarray(at, at + 8000).toString('base64'), text: b.text } })}\n\n`,
        );
      return void res.end();
    }
    if (req.method === 'POST' && req.path === '/cognitiveservices/v1') {
      if (h('ocp-apim-subscription-key') !== VOICE_KEYS.azure)
        return sendJson(res, 401, { error: { code: '401', message: 'Access denied due to invalid subscription key.' } });
      if (h('x-microsoft-outputformat') !== 'raw-16khz-16bit-mono-pcm' || !h('content-type').startsWith('application/ssml+xml'))
        return sendJson(res, 400, { error: 'bad request' });
      const text = /<voice name='[^']+'>([\s\S]*)<\/voice>/.exec(req.body.toString('utf8'))?.[1] ?? '';
      self.said.azure.push(text);
      return pcm(res, text, 16000);
    }
    if (req.method === 'POST' && req.path === '/tts/bytes') {
      if (!h('cartesia-version')) return sendJson(res, 400, { error: 'Cartesia-Version header is required' });
      if (h('x-api-key') !== VOICE_KEYS.cartesia) return sendJson(res, 401, { error: 'Invalid API key' });
      const b = req.json() as { transcript?: string; output_format?: { sample_rate?: number; encoding?: string } };
      if (!b.transcript || b.output_format?.encoding !== 'pcm_s16le')
        return sendJson(res, 400, { error: 'transcript and output_format are required' });
      self.said.cartesia.push(b.transcript);
      return pcm(res, b.transcript, b.output_format.sample_rate ?? 16000);
    }
    if (req.method === 'POST' && req.path === '/speechtotext/transcriptions:transcribe') {
      if (h('ocp-apim-subscription-key') !== VOICE_KEYS.azure)
        return sendJson(res, 401, { error: { code: '401', message: 'Access denied.' } });
      const form = await new Request('http://x/', {
        method: 'POST',
        headers: { 'content-type': h('content-type') },
        body: new Uint8Array(req.body),
      })
        .formData()
        .catch(() => null);
      const audio = form?.get('audio');
      const definition = form?.get('definition');
      if (!(audio instanceof Blob) || typeof definition !== 'string')
        return sendJson(res, 400, { error: { code: 'InvalidRequest', message: 'audio and definition are required' } });
      self.azureDefinitions.push(JSON.parse(definition) as Record<string, unknown>);
      return sendJson(res, 200, { durationMilliseconds: 1000, combinedPhrases: [{ text: self.transcript }], phrases: [] });
    }
    if (req.method === 'POST' && req.path === '/v1/speech:recognize') {
      if (req.query.get('key') !== VOICE_KEYS.google)
        return sendJson(res, 403, { error: { code: 403, message: 'API key not valid.', status: 'PERMISSION_DENIED' } });
      const b = req.json() as { config?: Record<string, unknown>; audio?: { content?: string } };
      if (!b.config || !b.audio?.content)
        return sendJson(res, 400, { error: { code: 400, message: 'config and audio are required', status: 'INVALID_ARGUMENT' } });
      self.googleConfigs.push(b.config);
      return sendJson(res, 200, { results: [{ alternatives: [{ transcript: self.transcript, confidence: 0.93 }] }] });
    }
    return sendJson(res, 404, { error: 'not found' });
  });
  return Object.assign(self, http);
}
