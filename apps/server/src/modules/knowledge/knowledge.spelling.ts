// British and American spellings of the same English word (issue 38, decision 417): a visitor
// writes "uninitialised" or "colour", the manual says "uninitialized" or "color" (or the other way
// round), and the stemmer keeps them apart. For a question word no chunk holds, these forms are
// tried before the thesaurus; unlike a synonym, a spelling is the same word and keeps its weight.
const RULES: [RegExp, string][] = [
  [/isation(s?)$/, 'ization$1'],
  [/ization(s?)$/, 'isation$1'],
  [/is(e|es|ed|ing|er|ers)$/, 'iz$1'],
  [/iz(e|es|ed|ing|er|ers)$/, 'is$1'],
  [/ys(e|es|ed|ing)$/, 'yz$1'],
  [/yz(e|es|ed|ing)$/, 'ys$1'],
  [/([^aeiou])our(s|ed|ing|ite|ites|able)?$/, '$1or$2'],
  [/([^aeiou])or(s|ed|ing|ite|ites|able)?$/, '$1our$2'],
  [/([^aeiou])tre(s?)$/, '$1ter$2'],
  [/([^aeiou])ter(s?)$/, '$1tre$2'],
  [/ogue(s?)$/, 'og$1'],
  [/ence(s?)$/, 'ense$1'],
  [/ense(s?)$/, 'ence$1'],
  [/([aeiou])ll(ed|ing|er|ers)$/, '$1l$2'],
  [/([aeiou])l(ed|ing|er|ers)$/, '$1ll$2'],
];

/** Other spellings of an English word ("uninitialised" → "uninitialized"); none for most words. */
export function spellingVariants(word: string): string[] {
  if (word.length < 5) return [];
  const out: string[] = [];
  for (const [re, to] of RULES) {
    const v = word.replace(re, to);
    if (v !== word && !out.includes(v)) out.push(v);
  }
  return out;
}
