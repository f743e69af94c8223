// The OpenAI audio API, which hosted providers and self-hosted speech servers implement: the
// product's own speech (SPEECH_BASE_URL). STT: POST {base}/audio/transcriptions, multipart with
// the utterance as a WAV file; TTS: POST {base}/audio/speech with response_format pcm (raw
// 24 kHz 16-bit mono little-endian PCM).
import type { OutboundClient } from '../../lib/outbound';
import type { SpokenAudio, SttConfig, TtsConfig } from '../types';
import { joinUrl } from './prompt';
import { failure, ProviderError } from './provider-error';
import { wav } from './wav';

/** The sample rate of response_format pcm. */
export const OPENAI_PCM_RATE = 24000;
const TIMEOUT_MS = 20_000;

const bearer = (key: string): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});

export async function openAiTranscribe(outbound: OutboundClient, c: SttConfig, pcm: Buffer, sampleRate: number): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(wav(pcm, sampleRate))], { type: 'audio/wav' }), 'utterance.wav');
  form.set('model', c.model || 'whisper-1');
  form.set('response_format', 'json');
  // With additional languages the model detects the language itself.
  const language = c.alternativeLanguages?.length ? undefined : c.language.split('-')[0]?.toLowerCase();
  if (language) form.set('language', language);
  if (c.phrases?.length) form.set('prompt', c.phrases.join(', ').slice(0, 1000));
  // The standard Response serialises the form with its boundary.
  const encoded = new Response(form);
  const res = await outbound.fetch(joinUrl(c.apiBase ?? 'https://api.openai.com/v1', 'audio/transcriptions'), {
    method: 'POST',
    headers: { ...bearer(c.apiKey), 'content-type': encoded.headers.get('content-type') ?? 'multipart/form-data' },
    body: Buffer.from(await encoded.arrayBuffer()),
    timeoutMs: c.timeoutMs ?? TIMEOUT_MS,
  });
  if (res.status !== 200) throw await failure('Speech recognition', res, [c.apiKey]);
  let json: { text?: unknown };
  try {
    json = res.json<{ text?: unknown }>();
  } catch {
    throw new ProviderError('Speech recognition', 'the answer is not JSON');
  }
  if (typeof json.text !== 'string') throw new ProviderError('Speech recognition', 'no text in the answer');
  return json.text.trim();
}

export async function openAiSynthesize(outbound: OutboundClient, c: TtsConfig, text: string): Promise<SpokenAudio> {
  const res = await outbound.fetch(joinUrl(c.apiBase ?? 'https://api.openai.com/v1', 'audio/speech'), {
    method: 'POST',
    headers: { ...bearer(c.apiKey), 'content-type': 'application/json' },
    body: JSON.stringify({
      model: c.model || 'tts-1',
      input: text,
      voice: c.voiceId || 'alloy',
      response_format: 'pcm',
      ...(c.speed ? { speed: c.speed } : {}),
    }),
    maxBytes: 20 * 1024 * 1024,
    timeoutMs: c.timeoutMs ?? TIMEOUT_MS,
  });
  if (res.status !== 200) throw await failure('Speech synthesis', res, [c.apiKey]);
  if (res.body.length === 0 || res.body.length % 2 !== 0 || /json|text/.test(res.headers.get('content-type') ?? '')) {
    throw new ProviderError('Speech synthesis', 'the answer is not PCM audio');
  }
  return { format: 'pcm16', sampleRate: OPENAI_PCM_RATE, audio: res.body.toString('base64') };
}
