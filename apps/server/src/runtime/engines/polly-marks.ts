// Amazon Polly speech marks (the same SynthesizeSpeech call with OutputFormat json and
// SpeechMarkTypes): a line-delimited JSON stream of {time (ms from the audio's start), type,
// value}. Viseme marks become the player's Oculus visemes and word marks its word cues; each
// mark ends where the next of its kind starts (the last at the audio's end). Polly offers speech
// marks for its standard, neural and long-form engines, not for generative voices.
import type { VisemeCue, WordCue } from '@parla/shared/schemas/conversation';
import type { Viseme } from '@parla/shared/visemes';

/** Polly's viseme names (docs: "Visemes and Amazon Polly") → the Oculus visemes of our faces. */
const POLLY_TO_OCULUS: Record<string, Viseme> = {
  sil: 'sil',
  p: 'PP',
  f: 'FF',
  T: 'TH',
  t: 'DD',
  k: 'kk',
  S: 'CH',
  s: 'SS',
  r: 'RR',
  a: 'aa',
  '@': 'aa',
  e: 'E',
  E: 'E',
  i: 'I',
  o: 'O',
  O: 'O',
  u: 'U',
};

export const SPEECH_MARK_ENGINES = new Set(['standard', 'neural', 'long-form']);

interface Mark {
  time: number;
  type: string;
  value: string;
}

function parseMarks(body: string): Mark[] {
  const marks: Mark[] = [];
  for (const line of body.split('\n')) {
    if (!line.trim()) continue;
    try {
      const m = JSON.parse(line) as Partial<Mark>;
      if (typeof m.time === 'number' && m.time >= 0 && typeof m.type === 'string' && typeof m.value === 'string')
        marks.push({ time: m.time, type: m.type, value: m.value });
    } catch {
      // A line that is not JSON is skipped: timings are a help, never a reason to fail speech.
    }
  }
  return marks.sort((a, b) => a.time - b.time);
}

/** Cues from `marks` of one type, each ending where the next starts, the last at `duration`. */
function spans<T>(marks: Mark[], duration: number, make: (m: Mark, start: number, end: number) => T | null): T[] {
  const out: T[] = [];
  marks.forEach((m, i) => {
    const start = m.time / 1000;
    const end = Math.max(start, Math.min(duration, (marks[i + 1]?.time ?? duration * 1000) / 1000));
    const cue = start < duration ? make(m, start, end) : null;
    if (cue) out.push(cue);
  });
  return out;
}

/** Visemes and words of a Polly speech-marks answer, fitted to audio of `duration` seconds. */
export function cuesFromMarks(body: string, duration: number): { visemes: VisemeCue[]; words: WordCue[] } {
  const marks = parseMarks(body);
  const visemes = spans(
    marks.filter((m) => m.type === 'viseme'),
    duration,
    (m, start, end) => {
      const viseme = POLLY_TO_OCULUS[m.value];
      return viseme ? { viseme, start, end } : null;
    },
  );
  const words = spans(
    marks.filter((m) => m.type === 'word'),
    duration,
    (m, start, end) => ({ word: m.value, start, end }),
  );
  return { visemes, words };
}
