// The meaningful words of a question: the words of the query without the stop words of the
// collection's language ("what are your hours" → "hours"), from the `stopword` package's lists
// (maintained, 60 languages; docs/decisions/407). PostgreSQL's language configurations drop
// their own stop words as well; for 'simple' (no language) these lists are the only filter, the
// English one included since questions to a bot are often in English whatever its documents.
import { createRequire } from 'node:module';
import { languageCode } from './knowledge.language';

// stopword 3.1.5 ships no types: its CommonJS build is read as the lists it is (ISO 639-3 names;
// knip cannot see a createRequire, so knip.json lists it among ignoreDependencies).
const stopwords = createRequire(import.meta.url)('stopword') as Record<string, string[] | undefined>;

const ISO3: Record<string, string> = {
  ar: 'ara',
  hy: 'hye',
  eu: 'eus',
  ca: 'cat',
  da: 'dan',
  nl: 'nld',
  en: 'eng',
  fi: 'fin',
  fr: 'fra',
  de: 'deu',
  el: 'ell',
  hi: 'hin',
  hu: 'hun',
  id: 'ind',
  ga: 'gle',
  it: 'ita',
  lt: 'lit',
  no: 'nob',
  nb: 'nob',
  pt: 'por',
  ro: 'ron',
  ru: 'rus',
  es: 'spa',
  sv: 'swe',
  tr: 'tur',
};

const cache = new Map<string, Set<string>>();

function stopSet(language: string | null): Set<string> {
  const code = languageCode(language);
  let set = cache.get(code);
  if (!set) {
    const lists = [stopwords[ISO3[code] ?? ''] ?? [], code && code !== 'en' && ISO3[code] ? [] : (stopwords.eng ?? [])];
    set = new Set(lists.flat().map((w) => w.toLowerCase()));
    cache.set(code, set);
  }
  return set;
}

/** The query's words, letters and digits only (nothing is tsquery syntax), at most 32. */
export function queryWords(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
}

/**
 * The words that carry the question, stop words dropped; all words when every one is a stop
 * word ("who are you" still searches).
 */
export function meaningfulWords(text: string, language: string | null): string[] {
  const words = queryWords(text);
  const stop = stopSet(language);
  const kept = words.filter((w) => !stop.has(w));
  return kept.length ? kept : words;
}
