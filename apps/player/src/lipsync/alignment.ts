// Provider audio that streams in pieces (third-party agents): the mouth follows each piece's
// character alignment when the provider sends one (characters with start times and durations →
// words → visemes spread over each word's span), else the reply's text spread evenly over the
// audio received so far.
import type { Viseme } from '@parla/shared/visemes';
import { spellDigits, wordToVisemes } from './letter-to-sound';
import { buildTimeline, visemeAt, type Timeline, type VisemeCue } from './timeline';

export interface CharAlignment {
  chars: readonly string[];
  /** Milliseconds from the start of the audio piece. */
  charStartTimesMs: readonly number[];
  charDurationsMs: readonly number[];
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}’']/u;

/**
 * Viseme cues (seconds, from `offset`) for one aligned piece of audio: each word's visemes share
 * the time from its first character's start to its last character's end; between words the
 * mouth rests.
 */
export function alignmentCues(alignment: CharAlignment, offset = 0, language = 'en'): VisemeCue[] {
  const { chars, charStartTimesMs: starts, charDurationsMs: durations } = alignment;
  const cues: VisemeCue[] = [];
  const n = Math.min(chars.length, starts.length);
  let i = 0;
  let restFrom = offset;
  while (i < n) {
    if (!WORD_CHAR.test(chars[i] ?? '')) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < n && WORD_CHAR.test(chars[j + 1] ?? '')) j++;
    const word = chars.slice(i, j + 1).join('');
    const start = offset + starts[i]! / 1000;
    const end = offset + (starts[j]! + Math.max(0, durations[j] ?? 0)) / 1000;
    const visemes = spellDigits(word, language)
      .split(/\s+/)
      .filter(Boolean)
      .flatMap((w) => wordToVisemes(w, language));
    if (visemes.length && end > start) {
      if (start > restFrom) cues.push({ viseme: 'sil', start: restFrom, end: start });
      const each = (end - start) / visemes.length;
      visemes.forEach((v, k) => cues.push({ viseme: v, start: start + k * each, end: start + (k + 1) * each }));
      restFrom = end;
    }
    i = j + 1;
  }
  return cues;
}

/** The cue holding at time t (seconds), 'sil' outside them. Cues are in time order. */
export function cueAt(cues: readonly VisemeCue[], t: number): Viseme {
  let lo = 0,
    hi = cues.length - 1;
  if (hi < 0 || t < cues[0]!.start || t >= cues[hi]!.end) return 'sil';
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cues[mid]!.start <= t) lo = mid;
    else hi = mid - 1;
  }
  const c = cues[lo]!;
  return t < c.end ? c.viseme : 'sil';
}

/** A reply's text spread over [start, end): the text's own timeline, stretched or squeezed. */
export function spreadViseme(timeline: Timeline, start: number, end: number, t: number): Viseme {
  if (end <= start || t < start || t >= end || timeline.duration <= 0) return 'sil';
  return visemeAt(timeline, ((t - start) / (end - start)) * timeline.duration);
}

export function textTimeline(text: string, language = 'en'): Timeline {
  return buildTimeline(text, { language });
}
