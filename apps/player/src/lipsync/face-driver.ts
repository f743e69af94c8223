// What the mouth does now: follows a viseme timeline (re-synchronised at speech word
// boundaries), or the energy of audio that has no timestamps, or rests. The stage calls tick()
// every frame; timers end a timeline even when frames stop (hidden tabs).
import type { Viseme } from '@parla/shared/visemes';
import { visemeAt, wordAtChar, type Timeline } from './timeline';

export interface MouthSource {
  viseme(nowMs: number): Viseme;
}

export class TimelinePlayback implements MouthSource {
  private startMs: number;
  private boundaries = 0;
  /** Where the last frame was in the timeline (s). */
  private lastT = Number.NEGATIVE_INFINITY;

  constructor(
    readonly timeline: Timeline,
    nowMs: number,
  ) {
    this.startMs = nowMs;
  }

  /** A word boundary from the speech engine: that word starts now. */
  sync(charIndex: number, nowMs: number): void {
    const word = wordAtChar(this.timeline, charIndex);
    if (!word) return;
    this.boundaries++;
    this.startMs = nowMs - word.start * 1000;
  }

  get synced(): boolean {
    return this.boundaries > 0;
  }

  /** Starts again from the beginning (speech still going after the estimate ran out). */
  restart(nowMs: number): void {
    this.startMs = nowMs;
  }

  elapsed(nowMs: number): number {
    return (nowMs - this.startMs) / 1000;
  }

  finished(nowMs: number): boolean {
    return this.elapsed(nowMs) >= this.timeline.duration;
  }

  viseme(nowMs: number): Viseme {
    const t = this.elapsed(nowMs);
    const since = this.lastT;
    this.lastT = t;
    const v = visemeAt(this.timeline, t);
    // A late frame (a loaded machine fires the 16 ms timer 100 ms late) must not step over a
    // closing of the lips (m, b, p: 60–80 ms): the eye misses a lip closure more than any other
    // shape. A closure that began and ended since the last frame is shown now, for one frame.
    return v !== 'PP' && closedBetween(this.timeline, since, t) ? 'PP' : v;
  }
}

/**
 * Whether a whole PP cue lies in (from, to]: only for a late frame (a step of 40–250 ms; frames
 * on time cannot step over a closure, and a longer jump is a re-synchronisation, not a frame).
 */
function closedBetween(timeline: Timeline, from: number, to: number): boolean {
  if (!(to - from >= 0.04 && to - from <= 0.25)) return false;
  return timeline.cues.some((c) => c.viseme === 'PP' && c.start > from && c.end <= to);
}

export class FaceDriver {
  private source: MouthSource | null = null;
  private last: Viseme = 'sil';
  private readonly listeners = new Set<(v: Viseme) => void>();

  use(source: MouthSource | null): void {
    this.source = source;
    if (!source) this.emit('sil');
  }

  isUsing(source: MouthSource): boolean {
    return this.source === source;
  }

  get speaking(): boolean {
    return this.source !== null;
  }

  get current(): Viseme {
    return this.last;
  }

  tick(nowMs: number): Viseme {
    const v = this.source ? this.source.viseme(nowMs) : 'sil';
    this.emit(v);
    return v;
  }

  /** Called with every change of viseme (the stage mirrors it on a data attribute). */
  onChange(fn: (v: Viseme) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(v: Viseme): void {
    if (v === this.last) return;
    this.last = v;
    for (const fn of this.listeners) fn(v);
  }
}
