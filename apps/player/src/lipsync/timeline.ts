// A viseme timeline for a text: when each word starts and ends, and which mouth shape holds at
// every moment. It drives the face on its own when there is no audio, and is re-synchronised
// at word boundaries when the speech engine reports them.
import type { Viseme } from '@parla/shared/visemes';
import { spellDigits, wordToVisemes } from './letter-to-sound';

export interface TimedWord {
  text: string;
  /** Index of the word's first character in the original text (speech boundary events use it). */
  charIndex: number;
  start: number;
  end: number;
}

export interface VisemeCue {
  viseme: Viseme;
  start: number;
  end: number;
}

export interface Timeline {
  words: TimedWord[];
  cues: VisemeCue[];
  /** Seconds, the final return to rest included. */
  duration: number;
}

/** Relative lengths: vowels carry the syllable, stops are short, lips close briefly. */
const WEIGHT: Record<Viseme, number> = {
  sil: 1,
  PP: 0.75,
  FF: 0.85,
  TH: 0.8,
  DD: 0.6,
  kk: 0.65,
  CH: 0.9,
  SS: 0.9,
  nn: 0.7,
  RR: 0.8,
  aa: 1.4,
  E: 1.25,
  I: 1.15,
  O: 1.4,
  U: 1.25,
};
const GAP_WORD = 0.05;
const PAUSE_COMMA = 0.22;
const PAUSE_SENTENCE = 0.42;
const TAIL = 0.12;

export interface TimelineOptions {
  language?: string;
  /** Speaking rate (spec: words_per_sec, default 3). */
  wordsPerSecond?: number;
}

export const DEFAULT_WORDS_PER_SECOND = 3;

export function buildTimeline(text: string, opts: TimelineOptions = {}): Timeline {
  const language = opts.language ?? 'en';
  const wps = opts.wordsPerSecond && opts.wordsPerSecond > 0 ? opts.wordsPerSecond : DEFAULT_WORDS_PER_SECOND;
  const words: TimedWord[] = [];
  const cues: VisemeCue[] = [];
  // Tokens: words (letters, digits, apostrophes) with their offsets, and punctuation pauses.
  const token = /([\p{L}\p{M}\p{N}’']+)|([,;:]+)|([.!?…。！？]+)/gu;
  const items: { word?: { text: string; index: number; visemes: Viseme[] }; pause?: number }[] = [];
  for (const m of text.matchAll(token)) {
    if (m[1]) {
      const spoken = spellDigits(m[1], language);
      const visemes = spoken
        .split(/\s+/)
        .filter(Boolean)
        .flatMap((w) => wordToVisemes(w, language));
      if (visemes.length) items.push({ word: { text: m[1], index: m.index ?? 0, visemes } });
    } else if (m[2]) items.push({ pause: PAUSE_COMMA });
    else if (m[3]) items.push({ pause: PAUSE_SENTENCE });
  }
  const wordCount = items.filter((i) => i.word).length;
  if (wordCount === 0) return { words: [], cues: [], duration: 0 };
  // One word lasts 1/wps on average: scale the per-viseme weights to that.
  const totalWeight = items.reduce((a, i) => a + (i.word ? i.word.visemes.reduce((s, v) => s + WEIGHT[v], 0) : 0), 0);
  const unit = (wordCount / wps - wordCount * GAP_WORD) / totalWeight;
  let t = 0;
  for (const item of items) {
    if (item.pause !== undefined) {
      // Rest during pauses: the mouth closes.
      cues.push({ viseme: 'sil', start: t, end: t + item.pause });
      t += item.pause;
      continue;
    }
    const w = item.word!;
    const start = t;
    for (const v of w.visemes) {
      const d = Math.max(0.045, WEIGHT[v] * unit);
      cues.push({ viseme: v, start: t, end: t + d });
      t += d;
    }
    words.push({ text: w.text, charIndex: w.index, start, end: t });
    cues.push({ viseme: 'sil', start: t, end: t + GAP_WORD });
    t += GAP_WORD;
  }
  cues.push({ viseme: 'sil', start: t, end: t + TAIL });
  return { words, cues, duration: t + TAIL };
}

/** The cue at time t (seconds from the start): binary search; 'sil' outside the timeline. */
export function visemeAt(timeline: Timeline, t: number): Viseme {
  const cues = timeline.cues;
  if (t < 0 || cues.length === 0 || t >= timeline.duration) return 'sil';
  let lo = 0,
    hi = cues.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cues[mid]!.start <= t) lo = mid;
    else hi = mid - 1;
  }
  return cues[lo]!.viseme;
}

/** The word whose first character is at charIndex, or the last word starting before it. */
export function wordAtChar(timeline: Timeline, charIndex: number): TimedWord | null {
  let best: TimedWord | null = null;
  for (const w of timeline.words) {
    if (w.charIndex <= charIndex) best = w;
    else break;
  }
  return best;
}
