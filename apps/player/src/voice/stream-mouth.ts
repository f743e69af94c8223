// The mouth while streamed reply audio plays: each chunk's visemes (or its words turned into
// visemes) placed at the chunk's start on the AudioContext's clock; chunks without timings move
// the mouth from the audio's level (EnergyMouth).
import type { Viseme } from '@parla/shared/visemes';
import type { MouthSource } from '../lipsync/face-driver';
import { visemeFromSamples } from '../lipsync/energy';
import { buildTimeline, type VisemeCue } from '../lipsync/timeline';

export interface ChunkTimings {
  visemes?: { viseme: Viseme; start: number; end: number }[];
  words?: { word: string; start: number; end: number }[];
}

/** A chunk's mouth shapes in seconds from its start: the provider's visemes, else its words
 *  spelled into visemes and fitted to each word's time, else null (the level decides). */
export function chunkCues(timings: ChunkTimings, language: string): VisemeCue[] | null {
  if (timings.visemes?.length) return [...timings.visemes].sort((a, b) => a.start - b.start);
  if (!timings.words?.length) return null;
  const cues: VisemeCue[] = [];
  for (const w of timings.words) {
    const timeline = buildTimeline(w.word, { language });
    const span = Math.max(0, w.end - w.start);
    if (!timeline.duration || !span) continue;
    const scale = span / timeline.duration;
    for (const c of timeline.cues) cues.push({ viseme: c.viseme, start: w.start + c.start * scale, end: w.start + c.end * scale });
  }
  return cues.sort((a, b) => a.start - b.start);
}

/** A chunk's decoded audio, for the level where the analyser hears nothing. */
export interface ChunkSamples {
  data: Float32Array;
  rate: number;
}

interface Span {
  start: number;
  end: number;
  cues: VisemeCue[] | null;
  samples?: ChunkSamples;
}

export class StreamMouth implements MouthSource {
  private spans: Span[] = [];

  constructor(
    private readonly clock: () => number,
    private readonly level: MouthSource,
    /** Whether the level source hears the audio (false: its context does not run). */
    private readonly audible: () => boolean = () => true,
  ) {}

  add(start: number, duration: number, cues: VisemeCue[] | null, samples?: ChunkSamples): void {
    this.spans.push({ start, end: start + duration, cues, samples });
  }

  viseme(nowMs: number): Viseme {
    const t = this.clock();
    const span = this.spans.find((s) => s.start <= t && t < s.end);
    if (!span) return 'sil';
    const local = t - span.start;
    if (!span.cues)
      return span.samples && !this.audible() ? visemeFromSamples(span.samples.data, span.samples.rate, local) : this.level.viseme(nowMs);
    let shape: Viseme = 'sil';
    for (const c of span.cues) {
      if (c.start > local) break;
      shape = local < c.end ? c.viseme : 'sil';
    }
    return shape;
  }
}
