// Amazon Polly SynthesizeSpeech: POST https://polly.{region}.amazonaws.com/v1/speech, JSON
// {Engine, OutputFormat: pcm, SampleRate, Text, TextType, VoiceId}, signed with SigV4 (the aws4
// package, lib/aws-sign.ts); the answer is raw 16-bit mono PCM. The stored voice is
// "{VoiceId}:{engine}" (the Brain tab lists each voice once per engine). Beside the audio, the
// same call with OutputFormat json asks for the speech marks (visemes and words) that drive the
// lips; it runs at the same time, and when it fails the audio still plays, the lips then follow
// the words spelled out or the audio's level (polly-marks.ts).
import { splitPollyVoice } from '@parla/shared/schemas/brain-pipeline';
import type { OutboundClient } from '../../lib/outbound';
import { signAws } from '../../lib/aws-sign';
import type { SpokenAudio, TtsConfig } from '../types';
import { cuesFromMarks, SPEECH_MARK_ENGINES } from './polly-marks';
import { joinUrl } from './prompt';
import { failure, ProviderError } from './provider-error';

const RATE = 16000;

function pollyRequest(outbound: OutboundClient, c: TtsConfig, fields: Record<string, unknown>, now: Date) {
  const region = c.region || 'us-east-1';
  const url = new URL(joinUrl(c.apiBase ?? `https://polly.${region}.amazonaws.com`, 'v1/speech'));
  const body = JSON.stringify(fields);
  const signed = signAws({
    method: 'POST',
    url,
    region,
    service: 'polly',
    accessKeyId: c.apiKey,
    secretAccessKey: c.secretKey ?? '',
    body,
    headers: { 'content-type': 'application/json' },
    now,
  });
  const { host: _host, 'content-length': _length, ...headers } = signed.headers;
  return outbound.fetch(url, { method: 'POST', headers, body, maxBytes: 20 * 1024 * 1024, timeoutMs: c.timeoutMs ?? 20_000 });
}

async function speechMarks(outbound: OutboundClient, c: TtsConfig, fields: Record<string, unknown>, now: Date): Promise<string | null> {
  try {
    const res = await pollyRequest(outbound, c, { ...fields, OutputFormat: 'json', SpeechMarkTypes: ['viseme', 'word'] }, now);
    return res.status === 200 ? res.body.toString('utf8') : null;
  } catch {
    return null;
  }
}

export async function pollySynthesize(outbound: OutboundClient, c: TtsConfig, text: string, now: Date = new Date()): Promise<SpokenAudio> {
  const { voiceId, engine: voiceEngine } = splitPollyVoice(c.voiceId);
  const engine = voiceEngine || c.model || 'neural';
  const fields = { Engine: engine, Text: text, TextType: 'text', VoiceId: voiceId };
  const [res, marks] = await Promise.all([
    pollyRequest(outbound, c, { ...fields, OutputFormat: 'pcm', SampleRate: String(RATE) }, now),
    SPEECH_MARK_ENGINES.has(engine) ? speechMarks(outbound, c, fields, now) : Promise.resolve(null),
  ]);
  if (res.status !== 200) throw await failure('Amazon Polly', res, [c.apiKey, c.secretKey]);
  if (!res.body.length || res.body.length % 2 !== 0 || /json/.test(res.headers.get('content-type') ?? ''))
    throw new ProviderError('Amazon Polly', 'the answer is not PCM audio');
  const audio: SpokenAudio = { format: 'pcm16', sampleRate: RATE, audio: res.body.toString('base64') };
  if (!marks) return audio;
  const { visemes, words } = cuesFromMarks(marks, res.body.length / 2 / RATE);
  return { ...audio, ...(visemes.length ? { visemes } : {}), ...(words.length ? { words } : {}) };
}
