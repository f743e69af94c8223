// Knowledge retrieval at 100,000 chunks: our search (bounded candidate ranking, see
// apps/server/src/modules/knowledge/knowledge.search.ts) against the naive query that ranks
// every match (`ORDER BY ts_rank`), on the same data in the same run. Prints p50/p99 per query,
// including the most common term (present in every chunk).
//
//   node --import tsx bench/knowledge-search.ts             # PGlite, 100,000 chunks
//   BENCH_CHUNKS=20000 node --import tsx bench/knowledge-search.ts
//   BENCH_DATABASE_URL=postgres://... node --import tsx bench/knowledge-search.ts
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { parseConfig } from '../apps/server/src/config';
import type { AppContext } from '../apps/server/src/context';
import { openDatabase } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { searchChunks } from '../apps/server/src/modules/knowledge/knowledge.search';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const WORDS_PER_CHUNK = 120;
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const CONFIG = 'english';

// A Zipf-like vocabulary: a few words are everywhere, most are rare. "acme" (the product's name)
// is in every chunk: the worst case for ranking every match.
const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
const TOPICS = ['refund', 'warranty', 'delivery', 'saddle', 'brake', 'battery', 'helmet', 'frame', 'invoice', 'lisbon'];
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const zipf = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(Math.pow(rand(), 3) * VOCAB.length))]!;

function chunk(i: number): string {
  const words = ['acme'];
  for (let w = 1; w < WORDS_PER_CHUNK; w++) words.push(zipf());
  // Topic words: 'refund' in ~10% of chunks, 'lisbon' in ~1%, one exact phrase in a single chunk.
  if (i % 10 === 0) words.push('refund', 'policy');
  if (i % 100 === 7) words.push('lisbon', 'workshop');
  words.push(TOPICS[i % TOPICS.length]!);
  if (i === Math.floor(CHUNKS / 2)) words.push('unicorn', 'tandem', 'rental');
  return words.join(' ');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time(fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL;
  const schema = url ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  const database = await openDatabase(url ? { databaseUrl: url, schema: schema! } : {});
  await migrate(database.db);
  const db = database.db;
  const owner = 'bench-owner';
  const collection = 'bench-collection';
  await db.insertInto('users').values({ id: owner, email: 'bench@example.com', password_hash: 'x', first_name: 'B', last_name: 'B' }).execute();
  await db.insertInto('knowledge_collections').values({ id: collection, owner_id: owner, name: 'Bench', language: 'en' }).execute();

  const started = performance.now();
  const ITEMS = Math.max(1, Math.ceil(CHUNKS / 100));
  await db
    .insertInto('knowledge_items')
    .values(Array.from({ length: ITEMS }, (_, i) => ({ id: `item-${i}`, owner_id: owner, collection_id: collection, name: `Document ${i}`, kind: 'text' as const, content: '', status: 'ready' as const })))
    .execute();
  for (let i = 0; i < CHUNKS; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, CHUNKS - i) }, (_, j) => {
      const n = i + j;
      const content = chunk(n);
      return { owner_id: owner, collection_id: collection, item_id: `item-${Math.floor(n / 100)}`, ord: n % 100, content, ts_config: CONFIG, tsv: sql`to_tsvector(${CONFIG}::regconfig, ${content})` };
    });
    await db.insertInto('knowledge_chunks').values(rows).execute();
  }
  await sql`analyze knowledge_chunks`.execute(db);
  console.log(`database: ${database.kind}; loaded ${CHUNKS.toLocaleString('en')} chunks of ${WORDS_PER_CHUNK} words in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const ctx = {
    db,
    database,
    config: parseConfig({ LOG_LEVEL: 'silent' }),
    log: { warn: () => {}, info: () => {}, error: () => {} },
  } as unknown as AppContext;

  const queries: [string, string][] = [
    ['most common term (every chunk)', 'acme'],
    ['common term (~10%)', 'refund'],
    ['rarer term (~1%)', 'lisbon'],
    ['question, two common words', 'acme refund policy?'],
    ['rare phrase (one chunk)', 'unicorn tandem rental'],
  ];

  console.log('');
  console.log('query                              matches   ours p50 / p99 (ms)   naive ORDER BY ts_rank p50 / p99 (ms)   speed-up p50');
  for (const [label, q] of queries) {
    const count = await sql<{ n: number }>`select count(*)::int as n from knowledge_chunks where tsv @@ websearch_to_tsquery(${CONFIG}::regconfig, ${q})`.execute(db);
    const ours = await time(() => searchChunks(ctx, owner, { collection_ids: [collection], query: q, top_k: 5 }));
    const naive = await time(() =>
      sql`
        select c.id, c.content, ts_rank(c.tsv, q.query) as score
        from knowledge_chunks c, websearch_to_tsquery(${CONFIG}::regconfig, ${q}) as q(query)
        where c.owner_id = ${owner} and c.collection_id = ${collection} and c.tsv @@ q.query
        order by score desc limit 5
      `.execute(db),
    );
    console.log(
      `${label.padEnd(34)} ${String(count.rows[0]!.n).padStart(7)}   ${ours.p50.toFixed(2).padStart(7)} / ${ours.p99.toFixed(2).padEnd(9)}   ${naive.p50.toFixed(2).padStart(9)} / ${naive.p99.toFixed(2).padEnd(26)}   ${(naive.p50 / ours.p50).toFixed(1)}x`,
    );
  }
  console.log('');
  console.log('ours: every query word first, then any word when fewer than top_k (5) match: the rare phrase runs both forms.');
  if (url && schema) await sql.raw(`drop schema if exists "${schema}" cascade`).execute(db);
  await database.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
