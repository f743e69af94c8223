// The in-page echo of the editor's preview (/avatar/preview?appearanceId=…): an unsaved
// appearance has no brain and no server conversation, so it replies with exactly what it was
// sent, streamed word by word. Saved avatars use the runtime's WebSocket client.
import type { ConversationClient, ConversationHandlers } from './conversation-client';

const WORD_DELAY_MS = 25;

export class EchoClient implements ConversationClient {
  private handlers: ConversationHandlers | null = null;
  private turn = 0;
  private timers: ReturnType<typeof setTimeout>[] = [];

  constructor(private readonly engine = 'Echo') {}

  async connect(handlers: ConversationHandlers): Promise<void> {
    this.handlers = handlers;
    handlers.onReady?.({ sessionId: `echo-${Date.now().toString(36)}`, engine: this.engine });
  }

  sendText(text: string): void {
    const h = this.handlers;
    if (!h) return;
    this.interrupt();
    const turnId = `t${++this.turn}`;
    const words = text.split(/(\s+)/).filter(Boolean);
    let sent = '';
    // One timer after another: timers of different delays may fire out of order on a busy page.
    const next = (i: number) => {
      this.timers = [
        setTimeout(() => {
          const w = words[i]!;
          sent += w;
          h.onDelta(turnId, w);
          if (i === words.length - 1) h.onDone(turnId, sent);
          else next(i + 1);
        }, WORD_DELAY_MS),
      ];
    };
    if (words.length) next(0);
  }

  interrupt(): void {
    this.timers.forEach(clearTimeout);
    this.timers = [];
  }

  close(): void {
    this.interrupt();
    this.handlers = null;
  }
}
