// The speaking half of server speech (decision 612): the brain's deltas pass through at once,
// and each sentence goes to the TTS as soon as it is complete, not after the whole answer. The
// syntheses run while the brain goes on; their audio is yielded in sentence order. When the
// reply is cut (its signal aborts) no further TTS request starts.
import type { EngineDeps, EngineEvent, TtsConfig } from '../types';
import { audioPieces } from './audio-chunks';
import { SpeechFailed } from './provider-error';
import { embeddedSynthesize } from './embedded/embedded-tts';
import { synthesize, type SpokenAudio } from './speech';

/** Where a sentence may end: . ! ? … (then a closing quote or bracket) before white space. */
const SENTENCE_END = /[.!?…]["')\]]?\s+/g;

/** Index just after the last sentence end of `text`, or 0. */
export function lastSentenceEnd(text: string): number {
  let idx = 0;
  SENTENCE_END.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SENTENCE_END.exec(text))) idx = m.index + m[0].length;
  return idx;
}

/** A queue read by one async iterator; the producer ends it (with an error or not). */
class EventQueue<T> {
  private items: T[] = [];
  private wake: (() => void) | null = null;
  private ended = false;
  private error: unknown = null;

  push(item: T): void {
    this.items.push(item);
    this.wake?.();
  }

  end(error: unknown = null): void {
    this.ended = true;
    this.error = error;
    this.wake?.();
  }

  async *drain(): AsyncIterable<T> {
    for (;;) {
      while (this.items.length) yield this.items.shift()!;
      if (this.ended) {
        if (this.error) throw this.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}

export function audioEvent(spoken: SpokenAudio): Extract<EngineEvent, { type: 'audio' }> {
  return {
    type: 'audio',
    format: spoken.format,
    ...(spoken.sampleRate ? { sampleRate: spoken.sampleRate } : {}),
    audio: spoken.audio,
    ...(spoken.words ? { words: spoken.words } : {}),
    ...(spoken.visemes ? { visemes: spoken.visemes } : {}),
  };
}

/** The brain's events with the audio of each sentence added, in order. */
export async function* spokenTurn(
  brain: AsyncIterable<EngineEvent>,
  tts: TtsConfig,
  deps: Pick<EngineDeps, 'outbound' | 'voices'>,
  signal: AbortSignal,
  /** Whose speech this is (the conversation), so the embedded voice's workers serve all in turn. */
  speakerKey = 'speech',
): AsyncIterable<EngineEvent> {
  const queue = new EventQueue<EngineEvent>();
  let chain: Promise<void> = Promise.resolve();
  const say = (text: string) => {
    const sentence = text.trim();
    if (!sentence || signal.aborted) return;
    const spoken =
      tts.provider === 'embedded'
        ? embeddedSynthesize(deps.voices, tts, sentence, speakerKey, signal)
        : synthesize(deps.outbound, tts, sentence);
    spoken.catch(() => undefined);
    chain = chain.then(async () => {
      // A synthesis cut with the reply (the embedded voice drops its queued pieces) is no failure.
      const audio = await spoken.catch((err: unknown) => {
        if (signal.aborted) return null;
        throw new SpeechFailed(err);
      });
      if (audio && !signal.aborted) for (const piece of audioPieces(audioEvent(audio))) queue.push(piece);
    });
    // The chain is awaited only once the brain is done: until then a failed sentence must not
    // count as an unhandled rejection (which ends the server process).
    chain.catch(() => undefined);
  };
  void (async () => {
    let pending = '';
    try {
      for await (const ev of brain) {
        if (signal.aborted) break;
        queue.push(ev);
        if (ev.type !== 'delta') continue;
        pending += ev.text;
        const cut = lastSentenceEnd(pending);
        if (cut > 0) {
          say(pending.slice(0, cut));
          pending = pending.slice(cut);
        }
      }
      if (!signal.aborted) say(pending);
      await chain;
      queue.end();
    } catch (err) {
      queue.end(err);
    }
  })();
  yield* queue.drain();
}
