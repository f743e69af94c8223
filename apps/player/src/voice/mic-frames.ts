// The microphone's 32 ms frames after the capture worklet (mic-stream.ts): kept while the voice
// detector loads, then judged in order, through the segmenter, out to the sink as `start`, PCM16
// batches of about 64 ms and `end`.
// Judging runs on the page's main thread and can fall seconds behind the capture: the frames kept
// while the detector loads, the detector's first slow runs, a loaded machine. It must not take
// the page with it. The capture's messages only queue their frame; the judging runs in slices of
// SLICE_MS and then gives way, so the socket's transcripts and replies, the chat's updates and
// drawing go on meanwhile. (It used to judge each frame inside its own message: every message
// that came later, a transcript too, waited until all the frames before it had been judged; under
// CI's load a transcript showed 17 s after it arrived.)
// Each edge carries the time its frame was captured, counted in frames from the first one, not
// the time it was judged: a 4 s sentence judged in 1 s must still reach the server as 4 s of
// speech, or its turn-taking (min_speech_duration, the endpointing delay), which took the arrival
// time, drops it as too short or joins it to a sentence said seconds later.
import { MIC_MAX_FRAME_BYTES } from '../conversation/audio-frame-reader';
import { pcm16FromFloat } from './pcm16';
import type { Segmenter, SegmentEvent } from './segmenter';

export interface MicSink {
  audio(pcm16: Uint8Array<ArrayBuffer>): void;
  /** `atMs`: when the edge's audio was captured, on the page's clock (performance.now). */
  speech(event: 'start' | 'end', atMs: number): void;
}

export type Probability = (frame: Float32Array) => Promise<number> | number;

/** 16 kHz frames of 512 samples. */
export const FRAME_MS = 32;
/** Frames per binary message: 64 ms. */
const BATCH = 2;
const MAX_BATCH = Math.floor(MIC_MAX_FRAME_BYTES / (512 * 2));
/** Frames kept while the voice detector loads (10 s): what the user says meanwhile is judged
 *  once it is ready, not lost. */
export const MAX_EARLY_FRAMES = Math.ceil(10_000 / FRAME_MS);
/** Frames the judging may fall behind the capture once the detector runs (30 s): on a machine
 *  too slow to keep up, the oldest are dropped rather than memory and delay growing without end. */
export const MAX_BEHIND_FRAMES = Math.ceil(30_000 / FRAME_MS);
/** The longest the judging holds the main thread before other tasks may run. */
const SLICE_MS = 20;

export class MicFrames {
  private probability: Probability | null = null;
  /** Captured frames not judged yet, with their capture times. */
  private queue: { frame: Float32Array; at: number }[] = [];
  private draining = false;
  private pending: Float32Array[] = [];
  private stopped = false;
  /** Page time at which the first frame began; frames after it follow every FRAME_MS. */
  private origin: number | null = null;
  /** Frames captured so far, kept or not. */
  private count = 0;
  /** Frames dropped because the judging fell MAX_BEHIND_FRAMES behind. */
  dropped = 0;

  constructor(
    private readonly segmenter: Segmenter,
    private readonly sink: MicSink,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A frame as the capture posts it: stamped now, judged once the detector is ready. */
  push(frame: Float32Array): void {
    if (this.stopped) return;
    if (this.origin === null) {
      performance.mark('parla:mic-first-frame');
      this.origin = this.now() - FRAME_MS;
    }
    const at = this.origin + ++this.count * FRAME_MS;
    if (!this.probability) {
      if (this.queue.length < MAX_EARLY_FRAMES) this.queue.push({ frame, at });
    } else {
      if (this.queue.length >= MAX_BEHIND_FRAMES) this.dropOldest();
      this.queue.push({ frame, at });
    }
    this.schedule();
  }

  private dropOldest(): void {
    if (this.dropped++ === 0) console.warn('Parla: the voice detector is 30 s behind the microphone; the oldest audio is dropped.');
    this.queue.shift();
  }

  /** The detector has loaded: the frames kept meanwhile are judged first, in order. */
  ready(probability: Probability): void {
    this.probability = probability;
    this.schedule();
  }

  /** The microphone stops: an utterance under way ends now. */
  stop(): void {
    if (this.stopped) return;
    this.handle(this.segmenter.flush(), this.now());
    this.stopped = true;
    this.queue = [];
  }

  private schedule(): void {
    if (this.draining || this.stopped || !this.probability || this.queue.length === 0) return;
    this.draining = true;
    // A new task, behind whatever else the page has to do.
    setTimeout(() => {
      this.drain()
        .catch((err: unknown) => console.warn(`Parla: the voice detector failed on a frame (${String(err)}).`))
        .finally(() => {
          this.draining = false;
          this.schedule();
        });
    }, 0);
  }

  /** Judges frames in order (Silero answers asynchronously) for at most SLICE_MS. */
  private async drain(): Promise<void> {
    const until = this.now() + SLICE_MS;
    while (!this.stopped && this.queue.length > 0) {
      const { frame, at } = this.queue.shift()!;
      const p = await this.probability!(frame);
      if (this.stopped) return;
      this.handle(this.segmenter.push(frame, p), at);
      if (this.now() >= until) return;
    }
  }

  private handle(events: SegmentEvent[], at: number): void {
    for (const e of events) {
      if (e.type === 'start') {
        performance.mark('parla:vad-start');
        this.sink.speech('start', at);
      } else if (e.type === 'audio') {
        this.pending.push(...e.frames);
        while (this.pending.length >= BATCH)
          this.sink.audio(pcm16FromFloat(this.pending.splice(0, Math.min(this.pending.length, MAX_BATCH))));
      } else {
        if (this.pending.length) this.sink.audio(pcm16FromFloat(this.pending.splice(0)));
        performance.mark('parla:vad-end');
        this.sink.speech('end', at);
      }
    }
  }
}
