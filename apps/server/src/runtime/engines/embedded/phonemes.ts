// Flite's phoneme timings (`-psdur`: `pau:0.164 hh:0.255 ax:0.304 …`, ARPAbet with each end time
// in seconds from the audio's start) become the faces' Oculus visemes and the captions' words
// (decision 122), and the text Flite is given is cut into pieces it can take.
import type { VisemeCue, WordCue } from '@parla/shared/schemas/conversation';
import type { Viseme } from '@parla/shared/visemes';

/** The usual ARPAbet → Oculus viseme table; `hh` takes the next vowel's shape (below). */
const ARPABET_TO_OCULUS: Record<string, Viseme> = {
  pau: 'sil',
  p: 'PP',
  b: 'PP',
  m: 'PP',
  f: 'FF',
  v: 'FF',
  th: 'TH',
  dh: 'TH',
  t: 'DD',
  d: 'DD',
  k: 'kk',
  g: 'kk',
  ng: 'kk',
  ch: 'CH',
  jh: 'CH',
  sh: 'CH',
  zh: 'CH',
  s: 'SS',
  z: 'SS',
  n: 'nn',
  l: 'nn',
  r: 'RR',
  er: 'RR',
  aa: 'aa',
  ae: 'aa',
  ah: 'aa',
  aw: 'aa',
  ay: 'aa',
  ax: 'aa',
  eh: 'E',
  ey: 'E',
  ih: 'I',
  iy: 'I',
  y: 'I',
  ao: 'O',
  ow: 'O',
  oy: 'O',
  uh: 'U',
  uw: 'U',
  w: 'U',
};

export interface Phone {
  phone: string;
  start: number;
  end: number;
}

/** Phones with start and end from Flite's `-psdur` line; anything unreadable is skipped. */
export function parsePhones(line: string): Phone[] {
  const out: Phone[] = [];
  let start = 0;
  for (const item of line.trim().split(/\s+/)) {
    const m = /^([a-z]+):(\d+(?:\.\d+)?)$/.exec(item);
    if (!m) continue;
    const end = Number(m[2]);
    if (!(end >= start)) continue;
    out.push({ phone: m[1]!, start, end });
    start = end;
  }
  return out;
}

/** The visemes of the phones; `hh` (a breath) shapes the mouth like the vowel after it, and
 *  neighbours with the same viseme merge. */
export function visemesOf(phones: Phone[]): VisemeCue[] {
  const cues: VisemeCue[] = [];
  phones.forEach((p, i) => {
    let viseme = ARPABET_TO_OCULUS[p.phone];
    if (p.phone === 'hh') viseme = ARPABET_TO_OCULUS[phones[i + 1]?.phone ?? ''] ?? ARPABET_TO_OCULUS[phones[i - 1]?.phone ?? ''] ?? 'aa';
    if (!viseme || p.end <= p.start) return;
    const last = cues.at(-1);
    if (last && last.viseme === viseme && Math.abs(last.end - p.start) < 1e-6) last.end = p.end;
    else cues.push({ viseme, start: p.start, end: p.end });
  });
  return cues;
}

/** Word cues for the captions. Flite's `-psdur` has no word boundaries, so each stretch of
 *  speech between pauses is shared among the text's words of that phrase (by length); when the
 *  pauses and the punctuation do not line up, the whole speech is shared among all the words. */
export function wordsOf(text: string, phones: Phone[]): WordCue[] {
  const spans: { start: number; end: number }[] = [];
  for (const p of phones) {
    if (p.phone === 'pau') continue;
    const last = spans.at(-1);
    if (last && Math.abs(last.end - p.start) < 1e-6) last.end = p.end;
    else spans.push({ start: p.start, end: p.end });
  }
  if (!spans.length) return [];
  const phrases = text
    .split(/[,;:.!?…]+(?:\s+|$)/)
    .map((s) => s.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)))
    .filter((ws) => ws.length);
  if (phrases.length === spans.length) return phrases.flatMap((ws, i) => share(ws, spans[i]!));
  return share(phrases.flat(), { start: spans[0]!.start, end: spans.at(-1)!.end });
}

function share(words: string[], span: { start: number; end: number }): WordCue[] {
  const total = words.reduce((n, w) => n + w.length, 0) || 1;
  let at = span.start;
  return words.map((word) => {
    const end = at + ((span.end - span.start) * word.length) / total;
    const cue = { word, start: round(at), end: round(end) };
    at = end;
    return cue;
  });
}

const round = (s: number) => Math.round(s * 1000) / 1000;

/** Flite 0.1.1 aborts its process on a token of a few hundred letters and on a text of about
 *  1,000 characters; pieces stay well inside both. */
export const PIECE_LIMITS = { chars: 240, token: 40 } as const;

/** The text in pieces Flite takes: tokens cut at `token` characters, pieces of at most `chars`,
 *  cut after a comma-like mark where one is near, else between words. Control characters go. */
export function piecesOf(text: string, limits: { chars: number; token: number } = PIECE_LIMITS): string[] {
  const tokens = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((t) => (t.length <= limits.token ? [t] : (t.match(new RegExp(`.{1,${limits.token}}`, 'gu')) ?? [])));
  const pieces: string[] = [];
  let current: string[] = [];
  let length = 0;
  const flush = () => {
    if (current.length) pieces.push(current.join(' '));
    current = [];
    length = 0;
  };
  for (const t of tokens) {
    if (length + t.length + 1 > limits.chars) flush();
    current.push(t);
    length += t.length + 1;
    // A natural break past half the piece: end here rather than mid-clause later.
    if (length > limits.chars / 2 && /[,;:.!?…]["')\]]?$/.test(t)) flush();
  }
  flush();
  return pieces;
}
