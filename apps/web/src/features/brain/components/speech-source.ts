// The one line of the Brain tab that says which speech the avatar will get (issue 14): the
// server's own (SPEECH_BASE_URL, told by the catalogue's serverSpeech) or the browser's.
export const SERVER_SPEECH_SIMPLE = "Voice: this server's own speech listens and speaks for the avatar.";
export const BROWSER_SPEECH_SIMPLE = "Voice: the browser's speech recognition and voice (this server has no speech of its own).";
export const SERVER_SPEECH_COMPOSITE = 'Voice: the speech providers chosen below, on the server; "Default" is this server\'s own speech.';
export const BROWSER_SPEECH_COMPOSITE =
  'Voice: the speech providers chosen below, on the server; "Default" is the browser\'s speech (this server has no speech of its own).';

/** The line for a mode, or null when the server did not say (older servers). */
export function speechSourceNote(mode: string, serverSpeech: boolean | undefined): string | null {
  if (serverSpeech === undefined) return null;
  if (mode === 'Simple') return serverSpeech ? SERVER_SPEECH_SIMPLE : BROWSER_SPEECH_SIMPLE;
  return serverSpeech ? SERVER_SPEECH_COMPOSITE : BROWSER_SPEECH_COMPOSITE;
}
