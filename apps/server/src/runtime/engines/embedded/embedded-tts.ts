// The embedded voice as a TTS provider (decision 122): a sentence is cut into pieces Flite takes,
// synthesised by the worker pool, and returned as one 16 kHz PCM sentence with the visemes of its
// own phonemes and word cues, the same shape as any provider's audio (so the speaker, the frames
// and the player need nothing new).
import { isEmbeddedVoiceId, type EmbeddedVoiceId } from '@parla/shared/embedded-voices';
import type { VoiceEntry } from '@parla/shared/providers';
import type { VisemeCue, WordCue } from '@parla/shared/schemas/conversation';
import type { SpokenAudio, TtsConfig } from '../../types';
import { ProviderError } from '../provider-error';
import { parsePhones, piecesOf, visemesOf, wordsOf } from './phonemes';
import type { EmbeddedVoicePool } from './voice-pool';

/** Flite's built-in US-English voices (CMU ARCTIC and the diphone `kal16`). */
export const EMBEDDED_VOICES: readonly { id: EmbeddedVoiceId; name: string; gender: 'female' | 'male' }[] = [
  { id: 'slt', name: 'Sally (US English, female)', gender: 'female' },
  { id: 'rms', name: 'Ross (US English, male)', gender: 'male' },
  { id: 'awb', name: 'Alan (Scottish English, male)', gender: 'male' },
  { id: 'kal16', name: 'Kal (US English, male, diphone)', gender: 'male' },
];

export { embeddedVoiceFor, speaksEmbedded, type EmbeddedVoiceId } from '@parla/shared/embedded-voices';

/** The embedded voices as the Brain tab's "Default" voice list shows them. */
export const embeddedVoiceEntries = (): VoiceEntry[] =>
  EMBEDDED_VOICES.map((v) => ({
    id: v.id,
    name: `${v.name}, built in`,
    languageCode: v.id === 'awb' ? 'en-GB' : 'en-US',
    languageName: v.id === 'awb' ? 'English (United Kingdom)' : 'English (United States)',
    gender: v.gender === 'female' ? 'Female' : 'Male',
    supportedEngines: ['embedded'],
    custom: false,
  }));

export const isEmbeddedVoice = isEmbeddedVoiceId;

/** The name a voice introduces itself with in its sample ("Sally"). */
export const embeddedVoiceName = (id: EmbeddedVoiceId): string => EMBEDDED_VOICES.find((v) => v.id === id)!.name.split(' (')[0]!;

/** The embedded TTS configuration of a voice (no key, no host). */
export const embeddedTts = (voiceId: EmbeddedVoiceId): TtsConfig => ({ provider: 'embedded', apiKey: '', voiceId });

export async function embeddedSynthesize(
  pool: EmbeddedVoicePool | undefined,
  c: TtsConfig,
  text: string,
  key: string,
  signal?: AbortSignal,
): Promise<SpokenAudio> {
  if (!pool) throw new ProviderError('Embedded voice', 'not available in this process');
  // Pieces are asked for at once: with one worker they queue in order, with more they overlap.
  const parts = await Promise.all(
    piecesOf(text).map((piece) => pool.synthesize(piece, c.voiceId, key, signal).then((s) => ({ piece, ...s }))),
  );
  if (!parts.length) throw new ProviderError('Embedded voice', 'nothing to say');
  const sampleRate = parts[0]!.sampleRate;
  const visemes: VisemeCue[] = [];
  const words: WordCue[] = [];
  let offset = 0;
  for (const p of parts) {
    const phones = parsePhones(p.phones);
    const seconds = p.pcm.length / 2 / p.sampleRate;
    // Flite's last end time can pass the audio by a few ms: cues stay inside their piece, so the
    // next piece's cues start on the audio's own clock.
    const place = <T extends { start: number; end: number }>(cue: T): T[] =>
      cue.start < seconds ? [{ ...cue, start: cue.start + offset, end: Math.min(cue.end, seconds) + offset }] : [];
    visemes.push(...visemesOf(phones).flatMap(place));
    words.push(...wordsOf(p.piece, phones).flatMap(place));
    offset += seconds;
  }
  return {
    format: 'pcm16',
    sampleRate,
    audio: Buffer.concat(parts.map((p) => p.pcm)).toString('base64'),
    ...(visemes.length ? { visemes } : {}),
    ...(words.length ? { words } : {}),
  };
}
