// Echo: replies with exactly what was said (the basis of deterministic tests, and what an
// avatar falls back to when its daily limit is used up).
import type { Engine, EngineEvent, TurnInput } from '../types';

export class EchoEngine implements Engine {
  readonly kind = 'echo' as const;

  async *turn(input: TurnInput): AsyncIterable<EngineEvent> {
    // Word by word, so clients see the same streaming shape as from a model.
    const parts = input.text.match(/\S+\s*/g) ?? [input.text];
    for (const part of parts) {
      if (input.signal.aborted) return;
      yield { type: 'delta', text: part };
      // Let other messages (an interrupt) be handled between words.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async close(): Promise<void> {}
}

/** Answers every turn with one fixed message (an engine that cannot run says why). */
export class MessageEngine implements Engine {
  readonly kind = 'unavailable' as const;
  constructor(private readonly message: string) {}

  async *turn(): AsyncIterable<EngineEvent> {
    yield { type: 'delta', text: this.message };
  }

  async close(): Promise<void> {}
}
