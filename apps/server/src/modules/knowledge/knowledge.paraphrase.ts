// Keyless help for paraphrased questions (decision 420): in an English question of more than
// COINCIDENCE_MAX_WORDS meaningful words (knowledge-rank.repository.ts), a word no chunk holds, nor
// any of its synonyms (knowledge.thesaurus.ts), gets its nearest words in GloVe's vector space
// (knowledge.word-neighbours.ts) as stand-ins: "sailors" → "crew", "ships". The first
// NEIGHBOUR_STAND_INS that some chunk holds stand for it as one group: a chunk counts its best one,
// weighing no more than the absent word would (as a synonym does; decision 427). In a short
// question an absent noun is the topic ("Do you repair cars?") and is left absent.
import { neighboursOf } from './knowledge.word-neighbours';

/** Absent words given neighbours per question (a table look-up each; bounds the second statement). */
const NEIGHBOUR_WORDS = 4;
/** Nearest words tried per absent word, nearest first, and their least cosine. Tuning halves, decision 420. */
const NEIGHBOURS = 6;
const NEIGHBOUR_MIN_COSINE = 0.55;
/** Held neighbours that stand in for one absent word, as a group: a chunk counts its best one
 *  (decision 427, tuning halves: 1 → 3 put 2 more of the manual's answers and 1 of the prose's in
 *  the top 3; 4 moved nothing more; 2 or 3 *synonyms* per word cost the FAQ one). */
export const NEIGHBOUR_STAND_INS = 3;

/** Stand-ins for words no chunk holds: each word's nearest words, nearest first. */
export function nearWords(lacking: string[]): [string, string[]][] {
  return lacking.slice(0, NEIGHBOUR_WORDS).map((w) => [w, neighboursOf(w, NEIGHBOURS, NEIGHBOUR_MIN_COSINE)]);
}
