// Provider audio (server TTS, the conversation runtime) drives the lips from the audio itself:
// with word timestamps, the text's viseme timeline is read at the audio's current time; without
// them, the audio's energy moves the mouth (EnergyMouth).
import type { Viseme } from '@parla/shared/visemes';
import type { MouthSource } from './face-driver';
import { visemeAt, wordAtChar, type Timeline } from './timeline';

/** A word's start in the audio, by the index of its first character in the spoken text. */
export interface WordTiming {
  charIndex: number;
  /** Seconds from the start of the audio. */
  start: number;
}

/** Where in the timeline the audio is at `audioTime`: the last word started, plus the time since. */
export function timelineTimeForAudio(timeline: Timeline, timings: readonly WordTiming[], audioTime: number): number {
  let last: WordTiming | null = null;
  for (const w of timings) {
    if (w.start <= audioTime) last = w;
    else break;
  }
  if (!last) return -1;
  const word = wordAtChar(timeline, last.charIndex);
  return word ? word.start + (audioTime - last.start) : -1;
}

export class AudioClockMouth implements MouthSource {
  private readonly timings: WordTiming[];

  constructor(private readonly timeline: Timeline, timings: readonly WordTiming[], private readonly currentTime: () => number) {
    this.timings = [...timings].sort((a, b) => a.start - b.start);
  }

  viseme(): Viseme {
    return visemeAt(this.timeline, timelineTimeForAudio(this.timeline, this.timings, this.currentTime()));
  }
}
