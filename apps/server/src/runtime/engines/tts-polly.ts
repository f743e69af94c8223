// Amazon Polly SynthesizeSpeech: POST https://polly.{region}.amazonaws.com/v1/speech, JSON
// {Engine, OutputFormat: pcm, SampleRate, Text, TextType, VoiceId}, signed with SigV4 (the aws4
// package, lib/aws-sign.ts); the answer is raw 16-bit mono PCM. The stored voice is
// "{VoiceId}:{engine}" (the Brain tab lists each voice once per engine).
import { splitPollyVoice } from '@parla/shared/schemas/brain-pipeline';
import type { OutboundClient } from '../../lib/outbound';
import { signAws } from '../../lib/aws-sign';
import type { SpokenAudio, TtsConfig } from '../types';
import { joinUrl } from './prompt';
import { failure, ProviderError } from './provider-error';

const RATE = 16000;

export async function pollySynthesize(outbound: OutboundClient, c: TtsConfig, text: string, now: Date = new Date()): Promise<SpokenAudio> {
  const region = c.region || 'us-east-1';
  const { voiceId, engine } = splitPollyVoice(c.voiceId);
  const url = new URL(joinUrl(c.apiBase ?? `https://polly.${region}.amazonaws.com`, 'v1/speech'));
  const body = JSON.stringify({ Engine: engine || c.model || 'neural', OutputFormat: 'pcm', SampleRate: String(RATE), Text: text, TextType: 'text', VoiceId: voiceId });
  const signed = signAws({ method: 'POST', url, region, service: 'polly', accessKeyId: c.apiKey, secretAccessKey: c.secretKey ?? '', body, headers: { 'content-type': 'application/json' }, now });
  const { host: _host, 'content-length': _length, ...headers } = signed.headers;
  const res = await outbound.fetch(url, { method: 'POST', headers, body, maxBytes: 20 * 1024 * 1024, timeoutMs: c.timeoutMs ?? 20_000 });
  if (res.status !== 200) throw await failure('Amazon Polly', res, [c.apiKey, c.secretKey]);
  if (!res.body.length || res.body.length % 2 !== 0 || /json/.test(res.headers.get('content-type') ?? '')) throw new ProviderError('Amazon Polly', 'the answer is not PCM audio');
  return { format: 'pcm16', sampleRate: RATE, audio: res.body.toString('base64') };
}
