// The voices shipped with the server, without zod (the player imports this: its first load
// stays free of the schema library, bench 6), and what the editor's preview exchanges with its
// player to speak in one of them.
import type { Viseme } from './visemes';

export const EMBEDDED_VOICE_IDS = ['slt', 'rms', 'awb', 'kal16'] as const;
export type EmbeddedVoiceId = (typeof EMBEDDED_VOICE_IDS)[number];

export const isEmbeddedVoiceId = (id: string): id is EmbeddedVoiceId => (EMBEDDED_VOICE_IDS as readonly string[]).includes(id);

/** The reply's audio as the conversations' frames carry it: 16-bit PCM, its mouth shapes and words. */
export interface PreviewSpeech {
  format: 'pcm16';
  sampleRate: number;
  /** Base64 of the PCM. */
  audio: string;
  visemes?: { viseme: Viseme; start: number; end: number }[];
  words?: { word: string; start: number; end: number }[];
}

/** The postMessage between the editor and its preview player: the player asks (`text`, `voice`,
 *  `id`), the editor answers (`id`, and `speech`, or none when it could not). Same origin only. */
export const PREVIEW_SPEECH_MESSAGE = 'parla:preview-speech';
