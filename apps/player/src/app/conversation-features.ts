// What the avatar's settings ask of the player in one conversation (issue 13), from `ready`:
// - Handle STT Response: recognised speech goes to the host page (`sttResponse`) instead of the
//   avatar; the host sends it back with sendChat (or drops it).
// - Transcription Streaming: the user's interim transcript is shown (and forwarded as
//   `sttInterim`) and the avatar's reply appears word by word as it streams; off: only final texts.
// - Enable Transcript Download: the URL of the end user's own transcript (a download button).
import type { ReadyInfo } from '../conversation/conversation-client';

export interface ConversationFeatures {
  handleSttResponse: boolean;
  streaming: boolean;
  transcriptUrl: string | null;
}

/** Before `ready` (and for clients that say nothing, the editor's echo): replies stream, speech goes to the avatar. */
export const DEFAULT_FEATURES: ConversationFeatures = { handleSttResponse: false, streaming: true, transcriptUrl: null };

export function featuresOf(info: ReadyInfo): ConversationFeatures {
  return {
    handleSttResponse: info.handleSttResponse === true,
    streaming: info.transcriptionStreaming ?? true,
    transcriptUrl: info.transcriptUrl ?? null,
  };
}
