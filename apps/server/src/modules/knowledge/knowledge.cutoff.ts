// The relevance cut-off's floor for one question (issue 38, decision 417). A passage's score is
// the share of the question's weight it holds; a visitor's long question carries more everyday
// words the answer does not share ("How do I glue several folder names together into one path?"
// for "joins all given path segments together"), so the same answer holds a smaller share of a
// longer question. The threshold (the avatar's setting, else SEARCH_SCORE_THRESHOLD_DEFAULT)
// is the floor of a question of up to two meaningful words; for n words it is threshold × 2/n
// (n at most MAX_TERM_WORDS, the words ranked). Words the visitor wrote as names ("Moses", "Red
// Sea") are not counted: a name is the question's topic, not a paraphrase, and a question about
// names the collection never mentions must stay silent. Chosen on the tuning halves of Bench 10
// held-out and Bench 10's own set: a fixed floor of 0.3 dropped 6 answers of the manual's 22
// tuning questions; a fixed lower one let most of Bench 10's no-answer questions through.
// A coincidental passage is not sent at all, whatever its score (decision 418): when the
// collection lacks one of the question's nouns (none of its chunks holds it, nor a spelling or
// synonym of it; names aside, they keep their full weight), a passage must share at least two
// of the question's words. "Do you repair cars?" to a bike shop shares "repair" with the
// workshop's page and nothing else: a question whose topic the collection never mentions, met by
// one incidental word. Only for questions of up to three meaningful words (decision 419): in a
// longer question the absent noun is mostly a paraphrase ("How long was the *prophet* inside the
// fish?" to a text that says "Jonah"), and its answer may share one word with it. Marked by
// rankChunks (`coincidental`), applied by searchChunks; an embedding's similarity can still keep
// the passage.
import { namedWords } from './knowledge.background';
import { MAX_TERM_WORDS } from './knowledge-rank.repository';

/** Questions of up to this many meaningful words get the whole threshold as their floor. */
const FULL_FLOOR_WORDS = 2;

/** The lowest score a passage needs for `question`, whose meaningful words are `words`. */
export function relevanceFloor(threshold: number, question: string, words: string[]): number {
  const named = namedWords(question);
  const n = Math.min(Math.max(words.filter((w) => !named.has(w)).length, 1), MAX_TERM_WORDS);
  return threshold * Math.min(1, FULL_FLOOR_WORDS / n);
}
