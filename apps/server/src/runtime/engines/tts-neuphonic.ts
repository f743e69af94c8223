// Neuphonic over server-sent events: POST {base}/sse/speak/{lang_code} with X-API-KEY and JSON
// {text, voice_id, lang_code, encoding: pcm_linear, sampling_rate, speed}; each event is
// `data: {"status_code": 200, "data": {"audio": "<base64 PCM16>"}}`, joined here in order.
import type { OutboundClient } from '../../lib/outbound';
import type { SpokenAudio, TtsConfig } from '../types';
import { joinUrl } from './prompt';
import { failure, ProviderError } from './provider-error';

const RATE = 22050;

export async function neuphonicSynthesize(outbound: OutboundClient, c: TtsConfig, text: string): Promise<SpokenAudio> {
  const lang = c.language || 'en';
  const res = await outbound.fetch(joinUrl(c.apiBase ?? 'https://api.neuphonic.com', `sse/speak/${encodeURIComponent(lang)}`), {
    method: 'POST',
    headers: { 'x-api-key': c.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      text,
      voice_id: c.voiceId || undefined,
      lang_code: lang,
      encoding: 'pcm_linear',
      sampling_rate: RATE,
      speed: 1 + (c.speed ?? 0),
    }),
    maxBytes: 30 * 1024 * 1024,
    timeoutMs: c.timeoutMs ?? 20_000,
  });
  if (res.status !== 200) throw await failure('Neuphonic', res, [c.apiKey]);
  const chunks: Buffer[] = [];
  for (const line of res.text().split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    let event: { status_code?: number; errors?: unknown; data?: { audio?: unknown } };
    try {
      event = JSON.parse(line.slice(5).trim()) as typeof event;
    } catch {
      throw new ProviderError('Neuphonic', 'an event is not JSON');
    }
    if (event.status_code !== undefined && event.status_code !== 200)
      throw new ProviderError('Neuphonic', `status ${event.status_code}`, event.status_code);
    if (typeof event.data?.audio === 'string' && event.data.audio) chunks.push(Buffer.from(event.data.audio, 'base64'));
  }
  const pcm = Buffer.concat(chunks);
  if (!pcm.length) throw new ProviderError('Neuphonic', 'no audio in the answer');
  return { format: 'pcm16', sampleRate: RATE, audio: pcm.toString('base64') };
}
