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

export interface Candidate {
  id: number;
  /** Lexemes in the chunk's tsvector (`length(tsv)`). */
  len: number;
  /** "lexeme pos pos …" for each query lexeme the chunk holds, in the tsvector's order. */
  spots: string[];
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
 * `index` maps a lexeme to its position in `idfs`.
 */
export function scoreCandidates(candidates: Candidate[], index: Map<string, number>, idfs: number[]): Scored[] {
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
      const at = spot.indexOf(' ');
      const i = index.get(at < 0 ? spot : spot.slice(0, at));
      if (i === undefined) continue;
      const tf = spot.split(' ').length - 1;
      const part = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * c.len) / avglen));
      raw += idfs[i]! * part;
      covered += idfs[i]! * Math.min(part, FULL);
      held = true;
    }
    if (held) out.push({ ...c, raw, covered, avglen });
  }
  return out.sort((a, b) => b.covered - a.covered || b.raw - a.raw || a.id - b.id);
}

/**
 * A tsvector's text ("'path':3A,17A 'join':4A") as "lexeme pos pos …" entries, in its order. Read
 * as text because PostgreSQL writes it in one call where unnesting it into an array took a
 * subquery per candidate. Quotes and backslashes in a lexeme are doubled in the text.
 */
export function spotsOf(tsvector: string): string[] {
  const out: string[] = [];
  for (const m of tsvector.matchAll(/'((?:[^']|'')*)'(?::([0-9A-D,]+))?/g)) {
    const lexeme = m[1]!.replace(/''/g, "'").replace(/\\\\/g, '\\');
    const positions = (m[2] ?? '').split(',').map((p) => p.replace(/[A-D]$/, ''));
    out.push(`${lexeme} ${positions.join(' ')}`);
  }
  return out;
}
