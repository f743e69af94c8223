// Custom STT/LLM/TTS pipeline. The player streams microphone audio and reports voice activity;
// the turn settings decide when the user's turn ends (min/max endpointing delay, min speech
// duration) and when user speech interrupts the avatar (allow interruptions, min interruption
// duration and words). The utterance goes to the STT provider, its text to the LLM, and each
// sentence of the reply to the TTS provider, whose audio (with word timings where given) goes
// back in order.
import type { Engine, EngineDeps, EngineEvent, EngineHost, PipelineConfig, TurnInput } from '../types';
import { LlmEngine } from './llm';
import { DeepgramStream } from './deepgram-stream';
import { synthesize, transcribe } from './speech';

const BYTES_PER_SECOND = (rate: number) => rate * 2;

export class PipelineEngine implements Engine {
  readonly kind = 'pipeline' as const;
  private readonly llm: LlmEngine;
  private sampleRate = 16000;
  /** Audio before speech started (prefix padding) and the utterance being spoken. */
  private preroll: Buffer[] = [];
  private utterance: Buffer[] = [];
  private utteranceBytes = 0;
  private speaking = false;
  private speechStartedAt = 0;
  private firstEndAt: number | null = null;
  private endTimer: NodeJS.Timeout | null = null;
  private interruptTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Deepgram streams while the user speaks; null when not used or not reachable. */
  private stream: DeepgramStream | null = null;
  private streamFailed = false;

  constructor(private readonly config: PipelineConfig, private readonly deps: EngineDeps, private readonly host: EngineHost) {
    this.llm = new LlmEngine(config.llm, deps);
  }

  audio(pcm: Buffer, sampleRate: number): void {
    this.sampleRate = sampleRate;
    if (this.speaking || this.endTimer) {
      this.stream?.audio(pcm);
      const cap = BYTES_PER_SECOND(sampleRate) * this.config.turn.maxBufferedSpeech;
      if (this.utteranceBytes + pcm.length <= cap) {
        this.utterance.push(pcm);
        this.utteranceBytes += pcm.length;
      }
      return;
    }
    this.preroll.push(pcm);
    const keep = BYTES_PER_SECOND(sampleRate) * this.config.turn.prefixPaddingDuration;
    let size = this.preroll.reduce((n, b) => n + b.length, 0);
    while (size > keep && this.preroll.length > 1) size -= this.preroll.shift()!.length;
  }

  speech(event: 'start' | 'end', atMs: number): void {
    const t = this.config.turn;
    if (event === 'start') {
      if (this.endTimer) {
        // The user went on within the endpointing delay: same turn.
        clearTimeout(this.endTimer);
        this.endTimer = null;
      } else {
        this.utterance = [...this.preroll];
        this.utteranceBytes = this.utterance.reduce((n, b) => n + b.length, 0);
        this.preroll = [];
        this.speechStartedAt = atMs;
        this.firstEndAt = null;
        void this.startStream();
      }
      this.speaking = true;
      if (t.allowInterruptions && this.host.speaking() && t.minInterruptionWords === 0) {
        this.interruptTimer = setTimeout(() => {
          this.interruptTimer = null;
          if (this.speaking && this.host.speaking()) this.host.interrupt();
        }, t.minInterruptionDuration * 1000);
      }
      return;
    }
    this.speaking = false;
    if (this.interruptTimer) {
      clearTimeout(this.interruptTimer);
      this.interruptTimer = null;
    }
    if ((atMs - this.speechStartedAt) / 1000 < t.minSpeechDuration && this.firstEndAt === null) {
      this.utterance = [];
      this.utteranceBytes = 0;
      return;
    }
    this.firstEndAt ??= atMs;
    const waited = (atMs - this.firstEndAt) / 1000;
    const delay = Math.max(0, Math.min(t.minEndpointingDelay, t.maxEndpointingDelay - waited));
    this.endTimer = setTimeout(() => {
      this.endTimer = null;
      void this.finishUtterance();
    }, delay * 1000);
  }

  /** Deepgram: open the stream (once) and send what this utterance holds so far (prefix padding
   *  and whatever came while connecting); later audio goes straight to the stream. */
  private async startStream(): Promise<void> {
    if (this.config.stt.provider !== 'deepgram' || this.streamFailed || this.closed) return;
    try {
      if (!this.stream?.open_) {
        const s = new DeepgramStream(this.deps.outbound, this.config.stt, this.sampleRate, (text) => this.host.transcript(text, false));
        await s.open();
        this.stream = s;
      }
      for (const b of this.utterance) this.stream.audio(b);
    } catch (err) {
      this.streamFailed = true;
      this.stream = null;
      this.deps.log.warn({ err: String(err) }, 'streaming recognition unavailable; using pre-recorded recognition');
    }
  }

  private async finishUtterance(): Promise<void> {
    const pcm = Buffer.concat(this.utterance);
    this.utterance = [];
    this.utteranceBytes = 0;
    this.firstEndAt = null;
    if (!pcm.length || this.closed) return;
    let text: string;
    try {
      text = this.stream?.open_ ? await this.stream.finish() : await transcribe(this.deps.outbound, this.config.stt, pcm, this.sampleRate);
    } catch (err) {
      this.deps.log.warn({ err: String(err) }, 'speech recognition failed');
      return;
    }
    if (!text) return;
    this.host.transcript(text, true);
    const t = this.config.turn;
    if (this.host.speaking()) {
      const words = text.split(/\s+/).filter(Boolean).length;
      if (!t.allowInterruptions || words < t.minInterruptionWords) return;
      this.host.interrupt();
    }
    this.host.userUtterance(text);
  }

  async *turn(input: TurnInput): AsyncIterable<EngineEvent> {
    let sentence = '';
    for await (const ev of this.llm.turn(input)) {
      if (input.signal.aborted) return;
      yield ev;
      if (ev.type !== 'delta') continue;
      sentence += ev.text;
      const cut = lastSentenceEnd(sentence);
      if (cut > 0) {
        const ready = sentence.slice(0, cut);
        sentence = sentence.slice(cut);
        yield* this.speak(ready, input.signal);
      }
    }
    if (sentence.trim() && !input.signal.aborted) yield* this.speak(sentence, input.signal);
  }

  private async *speak(text: string, signal: AbortSignal): AsyncIterable<EngineEvent> {
    if (!text.trim()) return;
    const spoken = await synthesize(this.deps.outbound, this.config.tts, text.trim());
    if (signal.aborted) return;
    yield { type: 'audio', format: spoken.format, ...(spoken.sampleRate ? { sampleRate: spoken.sampleRate } : {}), audio: spoken.audio, ...(spoken.words ? { words: spoken.words } : {}) };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stream?.close();
    if (this.endTimer) clearTimeout(this.endTimer);
    if (this.interruptTimer) clearTimeout(this.interruptTimer);
  }
}

/** Index just after the last sentence end (. ! ? followed by space), or 0. */
export function lastSentenceEnd(text: string): number {
  let idx = 0;
  const re = /[.!?…]["')\]]?\s+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) idx = m.index + m[0].length;
  return idx;
}
