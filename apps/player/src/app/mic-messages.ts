// What the end user reads when the microphone stops by itself (SpeechIn's onError).
export function micFailureMessage(error: string): string {
  switch (error) {
    case 'audio-capture':
      return 'No microphone was found, or it stopped working. The microphone is off; you can type instead.';
    case 'no-service':
      return "The microphone works, but this browser's speech recognition service is not available here. The microphone is off; you can type instead.";
    case 'audio-stalled':
      return 'The browser cannot start its sound here (no working sound device), so the microphone cannot listen. You can type instead.';
    case 'not-allowed':
    case 'service-not-allowed':
      return 'This page may not use the microphone. Allow it in the browser, or type instead.';
    case 'network':
      return 'Speech recognition needs a connection that is not available. The microphone is off; you can type instead.';
    case 'language-not-supported':
      return "Speech recognition does not support this avatar's language here. You can type instead.";
    default:
      return 'Speech recognition is not available right now. You can type instead.';
  }
}

/** The mic button pressed where nothing can listen: no server speech, no browser recognition. */
export const NO_VOICE_INPUT =
  'Voice input is not available here: this browser has no speech recognition (Firefox and some Chromium builds lack it) and this avatar does not listen through the server. Please type instead.';
