// Bench 4's data (bench/knowledge-search.ts), also loaded by its answer check
// (bench/knowledge-search-answers.ts): CHUNKS chunks of 120 words in one collection, 100 chunks an
// item, every word drawn from one seeded stream, so one load per process gives the same rows.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../apps/server/src/db/schema';
import { seededRandom } from './random-support';

export const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
export const WORDS_PER_CHUNK = 120;
export const CONFIG = 'english';
export const OWNER = 'bench-owner';
export const COLLECTION = 'bench-collection';

// A Zipf-like vocabulary: a few words are everywhere, most are rare. "acme" (the product's name)
// is in every chunk: the worst case for ranking every match.
const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
const TOPICS = ['refund', 'warranty', 'delivery', 'saddle', 'brake', 'battery', 'helmet', 'frame', 'invoice', 'lisbon'];
const rand = seededRandom(42);
const zipf = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(Math.pow(rand(), 3) * VOCAB.length))]!;

// The labelled set: visitor questions, each with RELEVANT chunks planted at scattered places
// (the passage that answers it: its words several times, as a real answer repeats its subject).
// Every question's words also occur elsewhere, so ranking has to tell the answer from mentions.
export const RELEVANT = 10;
export const LABELLED: { question: string; answer: string }[] = [
  {
    question: 'how long is the saddle warranty',
    answer: 'saddle warranty: every saddle has a two year warranty; the saddle warranty covers seams',
  },
  {
    question: 'can I return a helmet for a refund',
    answer: 'helmet refund: a helmet can be returned for a refund within 30 days; helmet refund forms',
  },
  { question: 'battery delivery to lisbon', answer: 'battery delivery to lisbon takes two days; lisbon battery delivery by courier' },
  { question: 'brake invoice copy', answer: 'brake invoice: a copy of the brake invoice is in your account; brake invoice by mail' },
  { question: 'frame size guide', answer: 'frame size guide: measure your inseam, the frame size guide lists every frame size' },
  { question: 'refund', answer: 'refund refund: how a refund works, when a refund is paid, refund of delivery costs' },
];
const relevantAt = new Map<number, number>();
LABELLED.forEach((_, q) => {
  for (let r = 0; r < RELEVANT; r++) relevantAt.set(Math.floor(((q * RELEVANT + r + 0.5) / (LABELLED.length * RELEVANT)) * CHUNKS) + 3, q);
});

/** The text of chunk i (called for i = 0, 1, … in order: the words come from one stream). */
function chunk(i: number): string {
  const words = ['acme'];
  for (let w = 1; w < WORDS_PER_CHUNK; w++) words.push(zipf());
  // Topic words: 'refund' in ~10% of chunks, 'lisbon' in ~1%, one exact phrase in a single chunk.
  if (i % 10 === 0) words.push('refund', 'policy');
  if (i % 100 === 7) words.push('lisbon', 'workshop');
  words.push(TOPICS[i % TOPICS.length]!);
  if (i === Math.floor(CHUNKS / 2)) words.push('unicorn', 'tandem', 'rental');
  const q = relevantAt.get(i);
  if (q !== undefined) words.push(LABELLED[q]!.answer);
  return words.join(' ');
}

/** The owner, the collection, its items and its chunks, then `analyze` (once per process). */
export async function loadBench4Data(db: Kysely<DB>): Promise<void> {
  await db
    .insertInto('users')
    .values({ id: OWNER, email: 'bench@example.com', password_hash: 'x', first_name: 'B', last_name: 'B' })
    .execute();
  await db.insertInto('knowledge_collections').values({ id: COLLECTION, owner_id: OWNER, name: 'Bench', language: 'en' }).execute();
  const items = Math.max(1, Math.ceil(CHUNKS / 100));
  await db
    .insertInto('knowledge_items')
    .values(
      Array.from({ length: items }, (_, i) => ({
        id: `item-${i}`,
        owner_id: OWNER,
        collection_id: COLLECTION,
        name: `Document ${i}`,
        kind: 'text' as const,
        content: '',
        status: 'ready' as const,
        chunk_count: Math.min(100, CHUNKS - i * 100),
      })),
    )
    .execute();
  for (let i = 0; i < CHUNKS; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, CHUNKS - i) }, (_, j) => {
      const n = i + j;
      const content = chunk(n);
      return {
        owner_id: OWNER,
        collection_id: COLLECTION,
        item_id: `item-${Math.floor(n / 100)}`,
        ord: n % 100,
        content,
        ts_config: CONFIG,
        tsv: sql`to_tsvector(${CONFIG}::regconfig, ${content})`,
      };
    });
    await db.insertInto('knowledge_chunks').values(rows).execute();
  }
  await sql`analyze knowledge_chunks`.execute(db);
}
