// The player's side of a conversation. The UI only knows this interface: the WebSocket client
// of the conversation runtime (ws-client.ts: WS /ws/conversation, messages ready / user_text /
// assistant_delta / assistant_done / interrupt / bye / error) for saved avatars, the in-page
// echo for the editor's preview of an unsaved appearance.
export interface ReplyAudio {
  /** A playable URL (a WAV blob built from the provider's PCM). */
  src: string;
  /** Word start times in seconds from the audio's start, when the provider gives them. */
  words?: { word: string; start: number }[];
}

export interface ConversationHandlers {
  /** `audio`: replies come with the provider's audio (onAudio), not to be spoken by the browser. */
  onReady?(info: { sessionId: string; engine: string; audio?: boolean }): void;
  /** Part of a reply as it streams. */
  onDelta(turnId: string, text: string): void;
  /** The whole reply. */
  onDone(turnId: string, text: string): void;
  onError(code: number, message: string): void;
  /** Something the end user should know that is not an error (a limit reached, ...). */
  onNotice?(message: string): void;
  /** A reply's audio, once the reply is complete. */
  onAudio?(turnId: string, text: string, audio: ReplyAudio): void;
  onClose?(): void;
}

export interface ConversationClient {
  connect(handlers: ConversationHandlers): Promise<void>;
  sendText(text: string): void;
  /** The current reply stops (the user spoke over it). */
  interrupt(): void;
  /** The conversation ends. */
  close(): void;
}
