// The BM25-like score of the ranking's candidates (knowledge-rank.repository.ts, decisions 400,
// 409, 417). It was computed in the ranking's SQL; planning those joins cost PGlite more than the
// rest of a search (issue 37), so it is computed here from what the statement reads: each
// candidate's length and where the query's lexemes stand in it. The arithmetic is PostgreSQL's,
// step for step (float8, the same operations in the same order), so the scores are the same
// numbers, bit for bit, and so is the order.
export const K1 = 1.2;
export const B = 0.75;
/** The per-word term part of a chunk holding the word twice at average length (score 1.0). */
export const FULL = (2 * (K1 + 1)) / (2 + K1);

/** A query lexeme a chunk holds, and where (word positions, ascending, as in the tsvector). */
export interface Spot {
  lexeme: string;
  positions: number[];
}

export interface Candidate {
  id: number;
  /** Lexemes in the chunk's tsvector (`length(tsv)`). */
  len: number;
  /** Each query lexeme the chunk holds, in the tsvector's order. */
  spots: Spot[];
}

export interface Scored extends Candidate {
  /** Σ idf · BM25 part, uncapped. */
  raw: number;
  /** Σ idf · BM25 part capped at FULL. */
  covered: number;
  /** The candidates' mean length, at least 1. */
  avglen: number;
}

/**
 * The candidates holding a query lexeme, scored and ordered by `covered`, then `raw`, then id.
 * `index` maps a lexeme to its position in `idfs` (and in `group`, when given).
 */
export function scoreCandidates(candidates: Candidate[], index: Map<string, number>, idfs: number[], group?: number[]): Scored[] {
  // `group[i]`: lexeme i's group. A group of several lexemes (one absent word's stand-ins, decision
  // 427) adds only the chunk's best of them to `covered`, after the others: a chunk holding two
  // neighbours of the word does not hold it twice. Lexemes alone in their group add as before, in the
  // same order (the same float8 sums).
  const shared = group ? group.map((g, i) => group.some((h, j) => h === g && j !== i)) : [];
  // Cleared only when used: Map.clear allocates a new table, garbage per candidate (decision 424).
  const best = new Map<number, number>();
  // avg(len): a sum of integers, exact in any order, divided by the count.
  let sum = 0;
  for (const c of candidates) sum += c.len;
  const avglen = Math.max(sum / candidates.length, 1);
  const out: Scored[] = [];
  for (const c of candidates) {
    let raw = 0;
    let covered = 0;
    let held = false;
    for (const spot of c.spots) {
      const i = index.get(spot.lexeme);
      if (i === undefined) continue;
      const tf = spot.positions.length;
      const part = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * c.len) / avglen));
      raw += idfs[i]! * part;
      if (shared[i]) best.set(group![i]!, Math.max(best.get(group![i]!) ?? 0, idfs[i]! * Math.min(part, FULL)));
      else covered += idfs[i]! * Math.min(part, FULL);
      held = true;
    }
    if (best.size) {
      for (const v of best.values()) covered += v;
      best.clear();
    }
    if (held) out.push({ id: c.id, len: c.len, spots: c.spots, raw, covered, avglen });
  }
  return out.sort((a, b) => b.covered - a.covered || b.raw - a.raw || a.id - b.id);
}

/** The largest of `values` whose group is `g` (a group of stand-ins weighs as its heaviest). */
export function groupMax(values: number[], group: number[], g: number): number {
  let most = 0;
  for (let i = 0; i < values.length; i++) if (group[i] === g) most = Math.max(most, values[i]!);
  return most;
}

const QUOTE = 39; // '
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const ZERO = 48;
const NINE = 57;

const NEWLINE = 10;
const SPACE = 32;

/**
 * A tsvector's text ("'path':3A,17A 'join':4A") as its entries, in its order. Read as text because
 * PostgreSQL writes it in one call where unnesting it into an array took a subquery per candidate
 * (decision 424). Read character by character: a search reads a few hundred of these, and a regular
 * expression, splits and joins made most of the garbage our own code left per search. Quotes and
 * backslashes in a lexeme are doubled in the text; a position's weight letter is skipped.
 */
export function spotsOf(tsvector: string): Spot[] {
  const out: Spot[] = [];
  readSpots(tsvector, 0, out);
  return out;
}

/**
 * Candidates packed in one text, one a line: "id len tsvector" (knowledge-rank.repository.ts). One
 * value instead of a row per candidate: PGlite copies every field of every row into an ArrayBuffer
 * of its own before decoding it, and makes an object per row (issue 37).
 */
export function candidatesOf(packed: string): Candidate[] {
  const out: Candidate[] = [];
  const end = packed.length;
  let at = 0;
  while (at < end) {
    let id = 0;
    for (let ch = packed.charCodeAt(at); ch !== SPACE && at < end; ch = packed.charCodeAt(++at)) id = id * 10 + (ch - ZERO);
    let len = 0;
    for (let ch = packed.charCodeAt(++at); ch !== SPACE && at < end; ch = packed.charCodeAt(++at)) len = len * 10 + (ch - ZERO);
    const spots: Spot[] = [];
    at = readSpots(packed, at + 1, spots) + 1;
    out.push({ id, len, spots });
  }
  return out;
}

/** Reads a tsvector's entries from `at` to the end of the line into `out`; returns where it stopped. */
function readSpots(text: string, at: number, out: Spot[]): number {
  const end = text.length;
  while (at < end) {
    const c = text.charCodeAt(at);
    if (c === NEWLINE) return at;
    if (c !== QUOTE) {
      at++;
      continue;
    }
    // The lexeme: up to the quote that is not doubled.
    const from = ++at;
    let escaped = false;
    for (;;) {
      const ch = text.charCodeAt(at);
      if (ch === QUOTE && text.charCodeAt(at + 1) === QUOTE) {
        escaped = true;
        at += 2;
      } else if (ch === QUOTE || at >= end) break;
      else {
        if (ch === BACKSLASH) escaped = true;
        at++;
      }
    }
    const raw = text.slice(from, at);
    const lexeme = escaped ? raw.replace(/''/g, "'").replace(/\\\\/g, '\\') : raw;
    at++;
    // An entry without positions (a stripped tsvector; stored ones have them) counts once at 0, as
    // when this was read with split.
    const positions: number[] = [];
    if (text.charCodeAt(at) !== COLON) positions.push(0);
    else {
      at++;
      let n = 0;
      for (; at < end; at++) {
        const ch = text.charCodeAt(at);
        if (ch >= ZERO && ch <= NINE) n = n * 10 + (ch - ZERO);
        else if (ch === COMMA) {
          positions.push(n);
          n = 0;
        } else if (ch === SPACE || ch === NEWLINE) break;
        // A weight letter (A–D) follows the digits: skipped.
      }
      positions.push(n);
    }
    out.push({ lexeme, positions });
  }
  return at;
}
