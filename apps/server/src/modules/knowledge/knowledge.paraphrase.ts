// Keyless help for paraphrased questions (decision 420): in an English question of more than
// COINCIDENCE_MAX_WORDS meaningful words (knowledge-rank.repository.ts), a word no chunk holds, nor
// any of its synonyms (knowledge.thesaurus.ts), gets its nearest words in GloVe's vector space
// (knowledge.word-neighbours.ts) as stand-ins: "sailors" → "crew", "ships"; the first one some chunk
// holds stands for it and weighs no more than the absent word would (as a synonym does). In a short
// question an absent noun is the topic ("Do you repair cars?") and is left absent.
import { neighboursOf } from './knowledge.word-neighbours';

/** Absent words given neighbours per question (a table look-up each; bounds the second statement). */
const NEIGHBOUR_WORDS = 4;
/** Nearest words tried per absent word, nearest first, and their least cosine. Tuning halves, decision 420. */
const NEIGHBOURS = 6;
const NEIGHBOUR_MIN_COSINE = 0.55;

/** Stand-ins for words no chunk holds: each word's nearest words, nearest first. */
export function nearWords(lacking: string[]): [string, string[]][] {
  return lacking.slice(0, NEIGHBOUR_WORDS).map((w) => [w, neighboursOf(w, NEIGHBOURS, NEIGHBOUR_MIN_COSINE)]);
}
