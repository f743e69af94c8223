// The player's side of a conversation. The UI only knows this interface: the in-page echo
// implements it today; the WebSocket client of the conversation runtime (WS /ws/conversation,
// messages ready / user_text / assistant_delta / assistant_done / interrupt / bye / error)
// replaces it without touching the UI.
export interface ConversationHandlers {
  onReady?(info: { sessionId: string; engine: string }): void;
  /** Part of a reply as it streams. */
  onDelta(turnId: string, text: string): void;
  /** The whole reply. */
  onDone(turnId: string, text: string): void;
  onError(code: number, message: string): void;
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
