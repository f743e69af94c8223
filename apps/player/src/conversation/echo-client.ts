// The in-page echo of the editor's preview (/avatar/preview?appearanceId=…): an unsaved
// appearance has no brain and no server conversation, so it replies with exactly what it was
// sent, streamed word by word. With `say` (the draft's built-in voice, preview-speech.ts) each
// reply comes with its audio, as a conversation's would; without it the browser speaks. Saved
// avatars use the runtime's WebSocket client.
import type { ConversationClient, ConversationHandlers } from './conversation-client';
import { previewFrame, type PreviewSay } from './preview-speech';

const WORD_DELAY_MS = 25;

export class EchoClient implements ConversationClient {
  private handlers: ConversationHandlers | null = null;
  private turn = 0;
  private timers: ReturnType<typeof setTimeout>[] = [];

  /** With a voice, the greeting is a reply like the others (its audio asked of the editor). */
  readonly greet: ((text: string) => void) | undefined;

  constructor(
    private readonly engine = 'Echo',
    private readonly say: PreviewSay | null = null,
  ) {
    this.greet = say ? (text) => this.sendText(text) : undefined;
  }

  async connect(handlers: ConversationHandlers): Promise<void> {
    this.handlers = handlers;
    handlers.onReady?.({ sessionId: `echo-${Date.now().toString(36)}`, engine: this.engine, ...(this.say ? { audio: true } : {}) });
  }

  sendText(text: string): void {
    const h = this.handlers;
    if (!h) return;
    this.interrupt();
    const turnId = `t${++this.turn}`;
    const turn = this.turn;
    // The audio is asked for at once (the whole reply is known); it plays when it comes, unless
    // the reply was cut meanwhile.
    void this.say?.(text).then((speech) => {
      if (!speech || turn !== this.turn || !this.handlers) return;
      const { header, audio } = previewFrame(turnId, speech);
      this.handlers.onAudioFrame?.(header, audio);
    });
    const words = text.split(/(\s+)/).filter(Boolean);
    let sent = '';
    let i = 0;
    const started = performance.now();
    // Word i is due WORD_DELAY_MS × (i + 1) after the start. One timer after another (timers of
    // different delays may fire out of order on a busy page), and each one sends every word that
    // is due by then, so a page that draws slowly (software WebGL: a few frames a second, each
    // timer waiting for the next gap) gets the whole reply in the same time as a fast one.
    const next = () => {
      this.timers = [
        setTimeout(() => {
          const due = Math.floor((performance.now() - started) / WORD_DELAY_MS);
          do {
            const w = words[i++]!;
            sent += w;
            h.onDelta(turnId, w);
          } while (i < words.length && i < due);
          if (i === words.length) h.onDone(turnId, sent);
          else next();
        }, WORD_DELAY_MS),
      ];
    };
    if (words.length) next();
  }

  interrupt(): void {
    this.turn++;
    this.timers.forEach(clearTimeout);
    this.timers = [];
  }

  close(): void {
    this.interrupt();
    this.handlers = null;
  }
}
