// The voices shipped with the server (decision 122, 126): Flite's US-English and Scottish voices.
// Shared so that the server's sample route validates its parameter and the Brain tab knows which
// voices it may preview and which languages they speak.
import { z } from 'zod';

export const EMBEDDED_VOICE_IDS = ['slt', 'rms', 'awb', 'kal16'] as const;
export type EmbeddedVoiceId = (typeof EMBEDDED_VOICE_IDS)[number];

/** GET /api/tts/embedded_sample/:voice — a few seconds of the voice, as WAV. */
export const embeddedSampleParams = z.object({ voice: z.enum(EMBEDDED_VOICE_IDS, { error: 'Unknown built-in voice.' }) });

/** Every embedded voice speaks English only (en, en-US, en-GB, ...). */
export const speaksEmbedded = (language: string): boolean => /^en(-|$)/i.test(language.trim());

export const isEmbeddedVoiceId = (id: string): id is EmbeddedVoiceId => (EMBEDDED_VOICE_IDS as readonly string[]).includes(id);

/** British and Irish English: the avatar's accent, for its default voice (Flite's only voice of
 *  the islands is `awb`, Scottish and male; a female avatar keeps `slt`). */
const BRITISH = /^en-(GB|IE|SCOTLAND|UK)$/i;

/** The embedded voice that fits an avatar: its face's gender (a neutral face gets the female
 *  voice) and its English's accent. */
export function embeddedVoiceFor(gender: string | undefined, language = 'en-US'): EmbeddedVoiceId {
  if (gender !== 'male') return 'slt';
  return BRITISH.test(language.trim()) ? 'awb' : 'rms';
}

/** The editor's note where the avatar's language has no embedded voice (issue 35, item 2). */
export const noEmbeddedVoiceNote = (languageName: string): string =>
  `The built-in voices speak English only: for ${languageName}, visitors hear their browser's voice for that language where the browser has one (otherwise the replies are shown as captions). Choose a Text to Speech provider in Composite mode for a voice of your own.`;

/** What the sample route says (the voice introduces itself). */
export const embeddedSampleText = (name: string): string => `Hello, I am ${name}. This is how I will sound when I answer your visitors.`;
