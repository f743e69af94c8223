// The player's side of a conversation. The UI only knows this interface: the WebSocket client
// of the conversation runtime (ws-client.ts: WS /ws/conversation, messages ready / user_text /
// assistant_delta / assistant_done / interrupt / bye / error) for saved avatars, the in-page
// echo for the editor's preview of an unsaved appearance.
import type { AudioFrameHeader } from '@parla/shared/audio-frames';
import type { MouthSource } from '../lipsync/face-driver';
import type { AvatarVad } from '../voice/vad-options';
import type { EndFacts } from './ending';

export interface ReadyInfo {
  sessionId: string;
  engine: string;
  /** Replies come as audio frames (onAudioFrame), not to be spoken by the browser. */
  audio?: boolean;
  /** 'server' = stream the microphone (sendAudio/sendSpeech) with the `vad` options. */
  listen?: 'server' | 'browser';
  vad?: AvatarVad;
  /** The avatar's settings the player acts on (issue 13): see app/conversation-features.ts. */
  handleSttResponse?: boolean;
  transcriptionStreaming?: boolean;
  transcriptUrl?: string;
}

export interface ConversationHandlers {
  onReady?(info: ReadyInfo): void;
  /** Part of a reply as it streams. */
  onDelta(turnId: string, text: string): void;
  /** The whole reply (`interrupted`: cut short, its audio must stop). */
  onDone(turnId: string, text: string, info?: { interrupted?: boolean }): void;
  onError(code: number, message: string): void;
  /** Something the end user should know that is not an error (a limit reached, ...). */
  onNotice?(message: string): void;
  /** A chunk of a reply's audio, as it streams (decision 611). */
  onAudioFrame?(header: AudioFrameHeader, audio: Uint8Array): void;
  /** What the server heard the user say (server speech recognition). */
  onTranscript?(text: string, final: boolean): void;
  /** The conversation ended without the user ending it (not called after close()). */
  onClose?(facts: EndFacts): void;
  /** A third-party agent is connected: it has its own voice and takes the microphone. */
  onProvider?(info: { provider: string }): void;
  /** What a third-party agent heard the user say. */
  onUserText?(text: string): void;
  /** What moves the mouth while a third-party agent speaks (null: the face rests). */
  onMouth?(source: MouthSource | null): void;
  /** A third-party agent started or stopped speaking. */
  onSpeaking?(on: boolean): void;
  /** A reply already shown was cut short: what the agent really said. */
  onCorrection?(turnId: string, text: string): void;
}

export interface ConversationClient {
  connect(handlers: ConversationHandlers): Promise<void>;
  sendText(text: string): void;
  /** The current reply stops (the user spoke over it). */
  interrupt(): void;
  /** The conversation ends. */
  close(): void;
  /** Microphone and speaker, for clients that handle them themselves (third-party agents). */
  setMic?(on: boolean): void;
  setSpeaker?(on: boolean): void;
  /** Microphone audio and voice activity, when the server listens (ready.listen 'server'). */
  sendAudio?(pcm16: Uint8Array<ArrayBuffer>): void;
  /** `atMs`: when the speech's edge was captured, on the page's clock (performance.now). */
  sendSpeech?(event: 'start' | 'end', atMs?: number): void;
  /** Says a greeting as one of its replies, in its own voice (the editor's preview with a built-in
   *  voice); absent: the player says it with the browser's voice. */
  greet?(text: string): void;
}
