// The voices shipped with the server (decision 122, 126): Flite's US-English and Scottish voices.
// Shared so that the server's sample route validates its parameter and the Brain tab knows which
// voices it may preview and which languages they speak.
import { z } from 'zod';

import { EMBEDDED_VOICE_IDS, type EmbeddedVoiceId } from './embedded-voice-ids';

export * from './embedded-voice-ids';

/** GET /api/tts/embedded_sample/:voice — a few seconds of the voice, as WAV. */
export const embeddedSampleParams = z.object({ voice: z.enum(EMBEDDED_VOICE_IDS, { error: 'Unknown built-in voice.' }) });

/** Every embedded voice speaks English only (en, en-US, en-GB, ...). */
export const speaksEmbedded = (language: string): boolean => /^en(-|$)/i.test(language.trim());

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

/** POST /api/tts/preview — the editor's preview says a reply in an embedded voice. */
export const PREVIEW_SPEECH_MAX_CHARS = 400;
export const previewSpeechRequest = z.object({
  voice: z.enum(EMBEDDED_VOICE_IDS, { error: 'Unknown built-in voice.' }),
  text: z
    .string({ error: 'A text is required.' })
    .trim()
    .min(1, 'A text is required.')
    .max(PREVIEW_SPEECH_MAX_CHARS, `At most ${PREVIEW_SPEECH_MAX_CHARS} characters are said at once.`),
});
export type PreviewSpeechRequest = z.infer<typeof previewSpeechRequest>;
