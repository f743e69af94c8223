// Azure AI Speech fast transcription: POST {region}.api.cognitive.microsoft.com
// /speechtotext/transcriptions:transcribe?api-version=2024-11-15, multipart with `audio` (the
// utterance as a WAV file) and `definition` ({locales, phraseList: {phrases}}: the avatar's
// context phrases); the answer's combinedPhrases[0].text is the transcript. The short-audio REST
// API takes no phrase list, this one does.
import type { OutboundClient } from '../../lib/outbound';
import type { SttConfig } from '../types';
import { joinUrl } from './prompt';
import { failure, ProviderError } from './provider-error';
import { wav } from './wav';

export const AZURE_STT_API_VERSION = '2024-11-15';

export async function azureTranscribe(outbound: OutboundClient, c: SttConfig, pcm: Buffer, sampleRate: number): Promise<string> {
  const form = new FormData();
  form.set('audio', new Blob([new Uint8Array(wav(pcm, sampleRate))], { type: 'audio/wav' }), 'utterance.wav');
  form.set(
    'definition',
    JSON.stringify({
      locales: [c.language, ...(c.alternativeLanguages ?? [])],
      ...(c.phrases?.length ? { phraseList: { phrases: c.phrases } } : {}),
    }),
  );
  const encoded = new Response(form);
  const res = await outbound.fetch(
    `${joinUrl(c.apiBase ?? 'https://westeurope.api.cognitive.microsoft.com', 'speechtotext/transcriptions:transcribe')}?api-version=${AZURE_STT_API_VERSION}`,
    {
      method: 'POST',
      headers: { 'ocp-apim-subscription-key': c.apiKey, 'content-type': encoded.headers.get('content-type') ?? 'multipart/form-data' },
      body: Buffer.from(await encoded.arrayBuffer()),
      timeoutMs: c.timeoutMs ?? 20_000,
    },
  );
  if (res.status !== 200) throw await failure('Azure STT', res, [c.apiKey]);
  let json: { combinedPhrases?: { text?: unknown }[] };
  try {
    json = res.json<typeof json>();
  } catch {
    throw new ProviderError('Azure STT', 'the answer is not JSON');
  }
  const text = json.combinedPhrases?.[0]?.text;
  return typeof text === 'string' ? text.trim() : '';
}
