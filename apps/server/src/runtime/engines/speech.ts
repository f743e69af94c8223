// Speech-to-text and text-to-speech providers of the custom pipeline, over their REST APIs.
// STT takes one utterance of PCM16 mono; TTS returns audio with word timings where the provider
// gives them (ElevenLabs' character alignment).
import type { OutboundClient } from '../../lib/outbound';
import type { SpokenAudio, SttConfig, TtsConfig } from '../types';

export type { SpokenAudio } from '../types';
import type { WordCue } from '@parla/shared/schemas/conversation';
import { joinUrl } from './prompt';
import { failure, ProviderError } from './provider-error';
import { openAiSynthesize, openAiTranscribe } from './openai-audio';
import { azureTranscribe } from './stt-azure';
import { neuphonicSynthesize } from './tts-neuphonic';
import { pollySynthesize } from './tts-polly';

export { wav } from './wav';

/** Deepgram's query for raw PCM16; the context phrases go as `keyterm` (Nova-3 models) or
 *  `keywords` (older models), one parameter per phrase. */
export function deepgramQuery(c: SttConfig, sampleRate: number, extra: Record<string, string> = {}): URLSearchParams {
  const q = new URLSearchParams({ encoding: 'linear16', sample_rate: String(sampleRate), channels: '1', punctuate: 'true', ...extra });
  if (c.model) q.set('model', c.model);
  // Additional languages: Deepgram's multilingual code-switching model (decision 623).
  if (c.alternativeLanguages?.length) q.set('language', 'multi');
  else if (c.language) q.set('language', c.language);
  const nova3 = c.model?.startsWith('nova-3') ?? false;
  for (const phrase of c.phrases ?? []) q.append(nova3 ? 'keyterm' : 'keywords', phrase);
  return q;
}

export async function transcribe(outbound: OutboundClient, c: SttConfig, pcm: Buffer, sampleRate: number): Promise<string> {
  if (c.provider === 'openai') return openAiTranscribe(outbound, c, pcm, sampleRate);
  if (c.provider === 'deepgram') {
    const q = deepgramQuery(c, sampleRate);
    const res = await outbound.fetch(`${joinUrl(c.apiBase ?? 'https://api.deepgram.com', 'v1/listen')}?${q}`, {
      method: 'POST',
      headers: { authorization: `Token ${c.apiKey}`, 'content-type': 'application/octet-stream' },
      body: pcm,
    });
    if (res.status !== 200) throw await failure('Deepgram', res, [c.apiKey]);
    const json = res.json<{ results?: { channels?: { alternatives?: { transcript?: string }[] }[] } }>();
    return json.results?.channels?.[0]?.alternatives?.[0]?.transcript?.trim() ?? '';
  }
  if (c.provider === 'google') {
    const res = await outbound.fetch(
      `${joinUrl(c.apiBase ?? 'https://speech.googleapis.com', 'v1/speech:recognize')}?key=${encodeURIComponent(c.apiKey)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          config: {
            encoding: 'LINEAR16',
            sampleRateHertz: sampleRate,
            languageCode: c.language,
            ...(c.model ? { model: c.model } : {}),
            ...(c.phrases?.length ? { speechContexts: [{ phrases: c.phrases }] } : {}),
            // Google takes up to three alternative languages beside the primary one.
            ...(c.alternativeLanguages?.length ? { alternativeLanguageCodes: c.alternativeLanguages.slice(0, 3) } : {}),
          },
          audio: { content: pcm.toString('base64') },
        }),
      },
    );
    if (res.status !== 200) throw await failure('Google STT', res, [c.apiKey]);
    const json = res.json<{ results?: { alternatives?: { transcript?: string }[] }[] }>();
    return (json.results ?? [])
      .map((r) => r.alternatives?.[0]?.transcript ?? '')
      .join(' ')
      .trim();
  }
  return azureTranscribe(outbound, c, pcm, sampleRate);
}

/** Words with start and end times from a character alignment. */
export function wordsFromAlignment(chars: string[], starts: number[], ends: number[]): WordCue[] {
  const words: WordCue[] = [];
  let current: WordCue | null = null;
  chars.forEach((ch, i) => {
    if (/\s/.test(ch)) {
      if (current) words.push(current);
      current = null;
      return;
    }
    if (!current) current = { word: ch, start: starts[i] ?? 0, end: ends[i] ?? starts[i] ?? 0 };
    else {
      current.word += ch;
      current.end = ends[i] ?? current.end;
    }
  });
  if (current) words.push(current);
  return words;
}

export async function synthesize(outbound: OutboundClient, c: TtsConfig, text: string): Promise<SpokenAudio> {
  if (c.provider === 'openai') return openAiSynthesize(outbound, c, text);
  if (c.provider === 'polly') return pollySynthesize(outbound, c, text);
  if (c.provider === 'neuphonic') return neuphonicSynthesize(outbound, c, text);
  if (c.provider === 'elevenlabs') {
    const url = `${joinUrl(c.apiBase ?? 'https://api.elevenlabs.io', `v1/text-to-speech/${encodeURIComponent(c.voiceId)}/with-timestamps`)}?output_format=pcm_16000`;
    const res = await outbound.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'xi-api-key': c.apiKey },
      body: JSON.stringify({
        text,
        ...(c.model ? { model_id: c.model } : {}),
        ...(c.speed ? { voice_settings: { speed: 1 + c.speed } } : {}),
      }),
      maxBytes: 20 * 1024 * 1024,
    });
    if (res.status !== 200) throw await failure('ElevenLabs TTS', res, [c.apiKey]);
    const json = res.json<{
      audio_base64?: string;
      alignment?: { characters?: string[]; character_start_times_seconds?: number[]; character_end_times_seconds?: number[] };
    }>();
    if (!json.audio_base64) throw new ProviderError('ElevenLabs TTS', 'no audio in the answer');
    const a = json.alignment;
    return {
      format: 'pcm16',
      sampleRate: 16000,
      audio: json.audio_base64,
      ...(a?.characters
        ? { words: wordsFromAlignment(a.characters, a.character_start_times_seconds ?? [], a.character_end_times_seconds ?? []) }
        : {}),
    };
  }
  if (c.provider === 'cartesia') {
    const res = await outbound.fetch(joinUrl(c.apiBase ?? 'https://api.cartesia.ai', 'tts/bytes'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': c.apiKey, 'cartesia-version': '2024-06-10' },
      body: JSON.stringify({
        model_id: c.model ?? 'sonic-2',
        transcript: text,
        voice: { mode: 'id', id: c.voiceId },
        output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
      }),
      maxBytes: 20 * 1024 * 1024,
    });
    if (res.status !== 200) throw await failure('Cartesia', res, [c.apiKey]);
    return { format: 'pcm16', sampleRate: 16000, audio: res.body.toString('base64') };
  }
  if (c.provider === 'azure') {
    const ssml = `<speak version='1.0' xml:lang='en-US'><voice name='${escapeXml(c.voiceId)}'>${escapeXml(text)}</voice></speak>`;
    const res = await outbound.fetch(joinUrl(c.apiBase ?? 'https://westeurope.tts.speech.microsoft.com', 'cognitiveservices/v1'), {
      method: 'POST',
      headers: {
        'ocp-apim-subscription-key': c.apiKey,
        'content-type': 'application/ssml+xml',
        'x-microsoft-outputformat': 'raw-16khz-16bit-mono-pcm',
      },
      body: ssml,
      maxBytes: 20 * 1024 * 1024,
    });
    if (res.status !== 200) throw await failure('Azure TTS', res, [c.apiKey]);
    return { format: 'pcm16', sampleRate: 16000, audio: res.body.toString('base64') };
  }
  throw new ProviderError(String(c.provider), 'this voice provider is not available');
}

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[ch]!);
}
