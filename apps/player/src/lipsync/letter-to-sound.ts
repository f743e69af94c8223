// Text → visemes without a dictionary: English letter-to-sound rules (longest match first, a
// few context rules such as the silent final e and the "magic e" that lengthens a vowel), a
// reduced table for other Latin-script languages, Cyrillic and Greek letters, and a syllable
// fallback for every other script. Good enough for lips; not a pronunciation engine.
import type { Viseme } from '@parla/shared/visemes';

type Rule = [pattern: string, visemes: Viseme[]];

// Longest patterns first within each starting letter (the rules are sorted below).
const ENGLISH: Rule[] = [
  ['tion', ['CH', 'nn']],
  ['sion', ['CH', 'nn']],
  ['ough', ['O']],
  ['augh', ['O']],
  ['eigh', ['E', 'I']],
  ['tch', ['CH']],
  ['igh', ['aa', 'I']],
  ['dge', ['CH']],
  ['sch', ['SS', 'kk']],
  ['ould', ['U', 'DD']],
  ['ch', ['CH']],
  ['sh', ['CH']],
  ['th', ['TH']],
  ['ph', ['FF']],
  ['gh', []],
  ['ng', ['nn']],
  ['nk', ['nn', 'kk']],
  ['ck', ['kk']],
  ['qu', ['kk', 'U']],
  ['wh', ['U']],
  ['wr', ['RR']],
  ['kn', ['nn']],
  ['gn', ['nn']],
  ['mb', ['PP']],
  ['ee', ['I']],
  ['ea', ['I']],
  ['ie', ['I']],
  ['ei', ['E', 'I']],
  ['oo', ['U']],
  ['ou', ['aa', 'U']],
  ['ow', ['O', 'U']],
  ['oi', ['O', 'I']],
  ['oy', ['O', 'I']],
  ['ai', ['E', 'I']],
  ['ay', ['E', 'I']],
  ['au', ['O']],
  ['aw', ['O']],
  ['oa', ['O', 'U']],
  ['ue', ['U']],
  ['ui', ['U']],
  ['ew', ['U']],
  ['ey', ['E', 'I']],
  ['er', ['RR']],
  ['ir', ['RR']],
  ['ur', ['RR']],
  ['ar', ['aa', 'RR']],
  ['or', ['O', 'RR']],
  ['ce', ['SS', 'E']],
  ['ci', ['SS', 'I']],
  ['cy', ['SS', 'I']],
  ['ge', ['CH', 'E']],
  ['gi', ['CH', 'I']],
  ['ss', ['SS']],
  ['ll', ['nn']],
  ['tt', ['DD']],
  ['pp', ['PP']],
  ['bb', ['PP']],
  ['mm', ['PP']],
  ['nn', ['nn']],
  ['ff', ['FF']],
  ['dd', ['DD']],
  ['rr', ['RR']],
  ['zz', ['SS']],
  ['a', ['aa']],
  ['b', ['PP']],
  ['c', ['kk']],
  ['d', ['DD']],
  ['e', ['E']],
  ['f', ['FF']],
  ['g', ['kk']],
  ['h', []],
  ['i', ['I']],
  ['j', ['CH']],
  ['k', ['kk']],
  ['l', ['nn']],
  ['m', ['PP']],
  ['n', ['nn']],
  ['o', ['O']],
  ['p', ['PP']],
  ['q', ['kk']],
  ['r', ['RR']],
  ['s', ['SS']],
  ['t', ['DD']],
  ['u', ['U']],
  ['v', ['FF']],
  ['w', ['U']],
  ['x', ['kk', 'SS']],
  ['y', ['I']],
  ['z', ['SS']],
];

// Spanish, French, German, Italian, Portuguese, Dutch…: letters read closer to their face value.
const LATIN: Rule[] = [
  ['sch', ['CH']],
  ['ch', ['CH']],
  ['sh', ['CH']],
  ['qu', ['kk']],
  ['gu', ['kk']],
  ['ll', ['I']],
  ['ñ', ['nn', 'I']],
  ['ou', ['U']],
  ['eu', ['O']],
  ['au', ['O']],
  ['ei', ['aa', 'I']],
  ['ie', ['I']],
  ['th', ['DD']],
  ['ph', ['FF']],
  ['a', ['aa']],
  ['á', ['aa']],
  ['à', ['aa']],
  ['â', ['aa']],
  ['ä', ['E']],
  ['ã', ['aa']],
  ['b', ['PP']],
  ['c', ['kk']],
  ['ç', ['SS']],
  ['d', ['DD']],
  ['e', ['E']],
  ['é', ['E']],
  ['è', ['E']],
  ['ê', ['E']],
  ['f', ['FF']],
  ['g', ['kk']],
  ['h', []],
  ['i', ['I']],
  ['í', ['I']],
  ['î', ['I']],
  ['j', ['CH']],
  ['k', ['kk']],
  ['l', ['nn']],
  ['m', ['PP']],
  ['n', ['nn']],
  ['o', ['O']],
  ['ó', ['O']],
  ['ô', ['O']],
  ['ö', ['O']],
  ['õ', ['O']],
  ['p', ['PP']],
  ['q', ['kk']],
  ['r', ['RR']],
  ['s', ['SS']],
  ['ß', ['SS']],
  ['t', ['DD']],
  ['u', ['U']],
  ['ú', ['U']],
  ['ü', ['U']],
  ['v', ['FF']],
  ['w', ['FF']],
  ['x', ['kk', 'SS']],
  ['y', ['I']],
  ['z', ['SS']],
];

const CYRILLIC_GREEK: Record<string, Viseme[]> = {
  а: ['aa'],
  б: ['PP'],
  в: ['FF'],
  г: ['kk'],
  д: ['DD'],
  е: ['E'],
  ё: ['O'],
  ж: ['CH'],
  з: ['SS'],
  и: ['I'],
  й: ['I'],
  к: ['kk'],
  л: ['nn'],
  м: ['PP'],
  н: ['nn'],
  о: ['O'],
  п: ['PP'],
  р: ['RR'],
  с: ['SS'],
  т: ['DD'],
  у: ['U'],
  ф: ['FF'],
  х: ['kk'],
  ц: ['SS'],
  ч: ['CH'],
  ш: ['CH'],
  щ: ['CH'],
  ы: ['I'],
  э: ['E'],
  ю: ['U'],
  я: ['aa'],
  і: ['I'],
  ї: ['I'],
  є: ['E'],
  α: ['aa'],
  β: ['FF'],
  γ: ['kk'],
  δ: ['TH'],
  ε: ['E'],
  ζ: ['SS'],
  η: ['I'],
  θ: ['TH'],
  ι: ['I'],
  κ: ['kk'],
  λ: ['nn'],
  μ: ['PP'],
  ν: ['nn'],
  ξ: ['kk', 'SS'],
  ο: ['O'],
  π: ['PP'],
  ρ: ['RR'],
  σ: ['SS'],
  ς: ['SS'],
  τ: ['DD'],
  υ: ['I'],
  φ: ['FF'],
  χ: ['kk'],
  ψ: ['PP', 'SS'],
  ω: ['O'],
  ά: ['aa'],
  έ: ['E'],
  ή: ['I'],
  ί: ['I'],
  ό: ['O'],
  ύ: ['I'],
  ώ: ['O'],
};

const byLength = (rules: Rule[]) => [...rules].sort((a, b) => b[0].length - a[0].length);
const ENGLISH_SORTED = byLength(ENGLISH);
const LATIN_SORTED = byLength(LATIN);
const VOWEL = /[aeiouy]/;

function applyRules(word: string, rules: Rule[], english: boolean): Viseme[] {
  const out: Viseme[] = [];
  let w = word;
  // The final silent e ("make", "home"), and the vowel before it reads long.
  let magic = false;
  if (english && w.length > 2 && w.endsWith('e') && !/[aeiouyl]e$/.test(w) && VOWEL.test(w.slice(0, -2))) {
    w = w.slice(0, -1);
    magic = /[aeiou][^aeiouy]$/.test(w);
  }
  let i = 0;
  while (i < w.length) {
    const rule = rules.find(([pattern]) => w.startsWith(pattern, i));
    if (!rule) {
      i++;
      continue;
    }
    let vis = rule[1];
    // Magic e: a-e → "ay", i-e → "eye", o-e → "oh", u-e → "you".
    if (magic && i === w.length - 2 && rule[0].length === 1) {
      const long: Record<string, Viseme[]> = { a: ['E', 'I'], i: ['aa', 'I'], o: ['O', 'U'], u: ['I', 'U'], e: ['I'] };
      vis = long[rule[0]] ?? vis;
    }
    // A word-final y after a consonant is "ee"; a word-initial y is a glide.
    out.push(...vis);
    i += rule[0].length;
  }
  return out;
}

function syllables(word: string): Viseme[] {
  // Scripts without rules here: one open-close cycle per character (roughly a syllable in CJK,
  // a consonant-vowel pair in abugidas), varied by the code point so it does not look looped.
  const open: Viseme[] = ['aa', 'E', 'O', 'I', 'U'];
  const close: Viseme[] = ['DD', 'kk', 'nn', 'SS', 'PP'];
  const out: Viseme[] = [];
  for (const ch of word) {
    const c = ch.codePointAt(0) ?? 0;
    out.push(close[c % close.length]!, open[(c >> 3) % open.length]!);
  }
  return out;
}

/** Collapses repeats: the mouth does not reopen for a double letter. */
function squeeze(v: Viseme[]): Viseme[] {
  return v.filter((x, i) => i === 0 || x !== v[i - 1]);
}

export function wordToVisemes(word: string, language = 'en'): Viseme[] {
  const w = word.toLowerCase().normalize('NFC').replace(/[’']/g, '');
  if (!w) return [];
  const lang = language.toLowerCase().slice(0, 2);
  if (/^[a-z]+$/.test(w) && lang === 'en') return squeeze(applyRules(w, ENGLISH_SORTED, true));
  if (/^[\p{Script=Latin}]+$/u.test(w)) return squeeze(applyRules(w, lang === 'en' ? ENGLISH_SORTED : LATIN_SORTED, lang === 'en'));
  if (/^[\p{Script=Cyrillic}\p{Script=Greek}]+$/u.test(w)) return squeeze([...w].flatMap((c) => CYRILLIC_GREEK[c] ?? []));
  return squeeze(syllables(w));
}

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** Digits are read one by one: enough for the lips, and no language-specific number rules. */
export function spellDigits(text: string, language = 'en'): string {
  if (!language.toLowerCase().startsWith('en')) return text;
  return text.replace(/\d/g, (d) => ` ${ONES[Number(d)]} `);
}
