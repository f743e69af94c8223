// The one line of the Brain tab that says which speech the avatar will get (issue 14): the
// server's own (SPEECH_BASE_URL, told by the catalogue's serverSpeech), the embedded voice with
// the browser listening (issue 35, the catalogue's embeddedVoice), or the browser's.
export const SERVER_SPEECH_SIMPLE = "Voice: this server's own speech listens and speaks for the avatar.";
export const BROWSER_SPEECH_SIMPLE = "Voice: the browser's speech recognition and voice (this server has no speech of its own).";
export const SERVER_SPEECH_COMPOSITE = 'Voice: the speech providers chosen below, on the server; "Default" is this server\'s own speech.';
export const BROWSER_SPEECH_COMPOSITE =
  'Voice: the speech providers chosen below, on the server; "Default" is the browser\'s speech (this server has no speech of its own).';

export const EMBEDDED_VOICE_SIMPLE =
  "Voice: the browser's speech recognition listens; this server's embedded voice speaks English (a female or male voice to fit the face), the browser's voice other languages.";
export const EMBEDDED_VOICE_COMPOSITE =
  "Voice: the speech providers chosen below, on the server; \"Default\" speaks with this server's embedded voice (English; other languages: the browser's voice) and listens with the browser's recognition.";

/** The line for a mode, or null when the server did not say (older servers). */
export function speechSourceNote(mode: string, serverSpeech: boolean | undefined, embeddedVoice?: boolean): string | null {
  if (serverSpeech === undefined) return null;
  if (mode === 'Simple') return serverSpeech ? SERVER_SPEECH_SIMPLE : embeddedVoice ? EMBEDDED_VOICE_SIMPLE : BROWSER_SPEECH_SIMPLE;
  return serverSpeech ? SERVER_SPEECH_COMPOSITE : embeddedVoice ? EMBEDDED_VOICE_COMPOSITE : BROWSER_SPEECH_COMPOSITE;
}
