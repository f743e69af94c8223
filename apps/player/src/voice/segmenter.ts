// Turns per-frame speech probabilities (Silero's, or the energy fallback's) into the utterances
// the player streams: `start` once speech has lasted min_speech_duration, then the prefix
// padding and every frame until silence has lasted min_silence_duration (`end`). An utterance
// longer than max_buffered_speech is cut; the next speech frame starts another.
import type { SegmenterOptions } from './vad-options';

export type SegmentEvent = { type: 'start' } | { type: 'audio'; frames: Float32Array[] } | { type: 'end' };

export class Segmenter {
  private state: 'silence' | 'pending' | 'speech' = 'silence';
  /** Frames before a possible start (the prefix padding). */
  private before: Float32Array[] = [];
  /** Frames since the first speech frame, before the start is confirmed. */
  private pending: Float32Array[] = [];
  private speechRun = 0;
  private silenceRun = 0;
  private length = 0;

  constructor(private options: SegmenterOptions) {}

  setOptions(options: SegmenterOptions): void {
    this.options = options;
  }

  get speaking(): boolean {
    return this.state === 'speech';
  }

  push(frame: Float32Array, probability: number): SegmentEvent[] {
    const o = this.options;
    const speech = probability >= o.positive;
    const silence = probability < o.negative;
    switch (this.state) {
      case 'silence':
        if (!speech) {
          this.keepBefore(frame);
          return [];
        }
        this.state = 'pending';
        this.pending = [frame];
        this.speechRun = 1;
        return this.confirm();
      case 'pending':
        this.pending.push(frame);
        if (speech) this.speechRun++;
        else if (silence) {
          // Too short: the frames become padding for a later start.
          for (const f of this.pending) this.keepBefore(f);
          this.pending = [];
          this.state = 'silence';
          return [];
        }
        return this.confirm();
      case 'speech': {
        this.length++;
        if (silence) this.silenceRun++;
        else if (speech) this.silenceRun = 0;
        const events: SegmentEvent[] = [{ type: 'audio', frames: [frame] }];
        if (this.silenceRun >= o.minSilenceFrames || this.length >= o.maxSpeechFrames) {
          events.push({ type: 'end' });
          this.state = 'silence';
          this.before = [];
        }
        return events;
      }
    }
  }

  /** The microphone stops: an utterance under way ends. */
  flush(): SegmentEvent[] {
    const was = this.state;
    this.state = 'silence';
    this.before = [];
    this.pending = [];
    return was === 'speech' ? [{ type: 'end' }] : [];
  }

  private confirm(): SegmentEvent[] {
    if (this.speechRun < this.options.minSpeechFrames) return [];
    const frames = [...this.before, ...this.pending];
    this.before = [];
    this.pending = [];
    this.state = 'speech';
    this.silenceRun = 0;
    this.length = frames.length;
    return [{ type: 'start' }, { type: 'audio', frames }];
  }

  private keepBefore(frame: Float32Array): void {
    if (this.options.prefixFrames <= 0) return;
    this.before.push(frame);
    while (this.before.length > this.options.prefixFrames) this.before.shift();
  }
}
