// Bench 4, knowledge retrieval at 100,000 chunks, top 10: our search (bounded candidate ranking,
// see apps/server/src/modules/knowledge/knowledge.search.ts) against the naive query that ranks
// every match (`ORDER BY ts_rank LIMIT 10`), on the same data in the same run. Prints p50/p99 per
// query from the rarest to the most common term, the speed-up on the most common term, and the
// top-10 quality of both on a labelled set (chunks planted as the relevant answers of visitor
// questions, scattered through the table). Goals: p99 ≤ 20 ms for every query, ≥ 4× faster than
// naive on the most common term, the same top-10 quality. Timed after a warm-up of every query
// through both searches (a running server's search; a new process's first searches are printed
// beside it, not the goal: decision 424).
// Peer check (issue 37): the two rank by different formulas by design (ours BM25-like over the
// query's meaningful words, the peer ts_rank over every match), so their top 10 need not be equal.
// What must be equal is checked for every query before timing it: the peer answers min(10,
// matches) chunks; every hit of ours (it may answer fewer: decision 407's relevance cut-off) is a
// chunk stored in the bench's collection, its item and text unchanged, that matches at least one
// of the query's words (for a one-word query, the peer's match set); and on the rare phrase (one
// chunk matches) both answer that same chunk first,
// byte for byte. A difference fails the bench.
//
//   node --import tsx bench/knowledge-search.ts             # PGlite, 100,000 chunks
//   BENCH_CHUNKS=20000 node --import tsx bench/knowledge-search.ts
//   BENCH_DATABASE_URL=postgres://... node --import tsx bench/knowledge-search.ts
//   BENCH_KEEP_SCHEMA=1 BENCH_DATABASE_URL=…   # keeps the loaded schema to EXPLAIN queries on
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { parseConfig } from '../apps/server/src/config';
import type { AppContext } from '../apps/server/src/context';
import { openDatabase } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { searchChunks } from '../apps/server/src/modules/knowledge/knowledge.search';
import { table, verdict, writeSection } from './report-support';
import { CHUNKS, COLLECTION, CONFIG, LABELLED, loadBench4Data, OWNER, RELEVANT, WORDS_PER_CHUNK } from './knowledge-search-data';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const WARM_ROUNDS = Number(process.env.BENCH_WARM_ROUNDS ?? 20);
const TOP_K = 10;
const P99_GOAL_MS = 20;
const SPEEDUP_GOAL = 4;

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
  await migrate(database.db, database.schema);
  const db = database.db;
  const owner = OWNER;
  const collection = COLLECTION;
  const started = performance.now();
  await loadBench4Data(db);
  console.log(
    `database: ${database.kind}; loaded ${CHUNKS.toLocaleString('en')} chunks of ${WORDS_PER_CHUNK} words in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const ctx = {
    db,
    database,
    config: parseConfig({ LOG_LEVEL: 'silent' }),
    log: { warn: () => {}, info: () => {}, error: () => {} },
  } as unknown as AppContext;

  // From the rarest to the most common term.
  const queries: [string, string][] = [
    ['rare phrase (one chunk)', 'unicorn tandem rental'],
    ['rarer term (~1%)', 'workshop'],
    ['common term (~10%)', 'refund'],
    ['question, two common words', 'acme refund policy?'],
    ['most common term (every chunk)', 'acme'],
  ];
  const ours = (q: string) => searchChunks(ctx, owner, { collection_ids: [collection], query: q, top_k: TOP_K });
  const naive = (q: string) =>
    sql<{ id: number; content: string }>`
      select c.id, c.content, ts_rank(c.tsv, q.query) as score
      from knowledge_chunks c, websearch_to_tsquery(${CONFIG}::regconfig, ${q}) as q(query)
      where c.owner_id = ${owner} and c.collection_id = ${collection} and c.tsv @@ q.query
      order by score desc limit ${TOP_K}
    `.execute(db);

  // The peer check (see the header): what both must agree on, whatever their ranking.
  const check = async (label: string, q: string, count: number) => {
    const o = await ours(q);
    const n = await naive(q);
    if (n.rows.length !== Math.min(TOP_K, count)) throw new Error(`${label}: ${count} chunks match, the peer answered ${n.rows.length}`);
    for (const hit of o) {
      const stored = await sql<{ n: number }>`
        select count(*)::int as n from knowledge_chunks c
        where c.owner_id = ${owner} and c.collection_id = ${collection} and c.item_id = ${hit.item_id} and c.content = ${hit.text}
          and c.tsv @@ replace(plainto_tsquery(${CONFIG}::regconfig, ${q})::text, '&', '|')::tsquery`.execute(db);
      if (!stored.rows[0]!.n)
        throw new Error(`${label}: ours answered a chunk that is not a stored match of a query word: ${hit.text.slice(0, 120)}`);
    }
    if (count === 1 && o[0]?.text !== n.rows[0]!.content)
      throw new Error(
        `${label}: one chunk matches, ours answered ${o[0]?.text.slice(0, 80) ?? 'nothing'} first, the peer ${n.rows[0]!.content.slice(0, 80)}`,
      );
  };

  console.log('');
  console.log(
    `query (top ${TOP_K})                         matches   ours p50 / p99 (ms)   naive ORDER BY ts_rank p50 / p99 (ms)   speed-up p50 / p99`,
  );
  // Warm-up, the same for both searches: a new process's PGlite runs its WebAssembly on V8's
  // baseline tier until the functions a search uses are re-compiled, over its first few hundred
  // statements (decision 424: the rare phrase's first 40 runs cost 20–28 ms, the same query after
  // 250 more 7–11 ms). The goal is a running server's search, so every query runs WARM_ROUNDS
  // times through both before any timing; the first searches of ours are timed and printed
  // beside it (not the goal).
  const cold: number[] = [];
  for (let round = 0; round < WARM_ROUNDS; round++)
    for (const [, q] of queries) {
      const t = performance.now();
      await ours(q);
      if (round < 8) cold.push(performance.now() - t);
      await naive(q);
    }
  cold.sort((a, b) => a - b);
  const coldFigure = `${percentile(cold, 50).toFixed(2)} / ${percentile(cold, 99).toFixed(2)} ms`;
  console.log(`a new process's first ${cold.length} searches of ours (every query in turn), p50 / p99: ${coldFigure}`);
  const rows: (string | number)[][] = [];
  let worstP99 = 0;
  let common = { p50: 0, p99: 0 };
  for (const [label, q] of queries) {
    const count = await sql<{
      n: number;
    }>`select count(*)::int as n from knowledge_chunks where tsv @@ websearch_to_tsquery(${CONFIG}::regconfig, ${q})`.execute(db);
    await check(label, q, count.rows[0]!.n);
    const o = await time(() => ours(q));
    const n = await time(() => naive(q));
    worstP99 = Math.max(worstP99, o.p99);
    if (q === 'acme') common = { p50: n.p50 / o.p50, p99: n.p99 / o.p99 };
    console.log(
      `${label.padEnd(34)} ${String(count.rows[0]!.n).padStart(7)}   ${o.p50.toFixed(2).padStart(7)} / ${o.p99.toFixed(2).padEnd(9)}   ${n.p50.toFixed(2).padStart(9)} / ${n.p99.toFixed(2).padEnd(26)}   ${(n.p50 / o.p50).toFixed(1)}x / ${(n.p99 / o.p99).toFixed(1)}x`,
    );
    rows.push([
      label,
      count.rows[0]!.n,
      `${o.p50.toFixed(2)} / ${o.p99.toFixed(2)}`,
      `${n.p50.toFixed(2)} / ${n.p99.toFixed(2)}`,
      `${(n.p50 / o.p50).toFixed(1)}× / ${(n.p99 / o.p99).toFixed(1)}×`,
    ]);
  }

  // Quality on the labelled set: how many of each question's planted answers are in the top 10.
  const found = (texts: string[], answer: string) => texts.filter((t) => t.includes(answer)).length;
  const quality: (string | number)[][] = [];
  let oursFound = 0;
  let naiveFound = 0;
  let overlapSum = 0;
  console.log('');
  console.log(`labelled set: ${LABELLED.length} questions, ${RELEVANT} planted answers each; answers found in the top ${TOP_K}`);
  for (const { question, answer } of LABELLED) {
    const o = await ours(question);
    const n = await naive(question);
    const of = found(
      o.map((h) => h.text),
      answer,
    );
    const nf = found(
      n.rows.map((r) => r.content),
      answer,
    );
    const oTexts = new Set(o.map((h) => h.text));
    const overlap = n.rows.filter((r) => oTexts.has(r.content)).length;
    oursFound += of;
    naiveFound += nf;
    overlapSum += overlap;
    console.log(
      `  ${JSON.stringify(question).padEnd(40)} ours ${of}/${RELEVANT}   naive ${nf}/${RELEVANT}   same chunks in both top ${TOP_K}: ${overlap}`,
    );
    quality.push([JSON.stringify(question), `${of}/${RELEVANT}`, `${nf}/${RELEVANT}`, `${overlap}/${TOP_K}`]);
  }
  const total = LABELLED.length * RELEVANT;
  const sameQuality = oursFound >= naiveFound;
  console.log('');
  console.log(`worst p99 of ours: ${worstP99.toFixed(2)} ms   goal ≤ ${P99_GOAL_MS} ms: ${verdict(worstP99 <= P99_GOAL_MS)}`);
  console.log(
    `most common term, naive / ours: p50 ${common.p50.toFixed(1)}x  p99 ${common.p99.toFixed(1)}x   goal ≥ ${SPEEDUP_GOAL}x: ${verdict(common.p50 >= SPEEDUP_GOAL)}`,
  );
  console.log(
    `labelled answers in the top ${TOP_K}: ours ${oursFound}/${total}, naive ${naiveFound}/${total}   goal the same quality: ${verdict(sameQuality)}`,
  );
  console.log(
    `ours: BM25-like over the query's meaningful words with the relevance cut-off (decision 407): it may answer fewer than top_k.`,
  );

  writeSection(
    'knowledge-search',
    'Bench 4 — knowledge search',
    `${CHUNKS.toLocaleString('en')} chunks of ${WORDS_PER_CHUNK} words on ${database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}, top ${TOP_K}, ${RUNS} runs per query; peer: the naive
\`ORDER BY ts_rank LIMIT ${TOP_K}\` over every match, same data, same run. Goals: p99 ≤ ${P99_GOAL_MS} ms for every
query, ≥ ${SPEEDUP_GOAL}× faster than naive on the most common term, the same top-${TOP_K} quality.
The two rank by different formulas by design, so their top ${TOP_K} need not be equal; checked for every query
(a difference fails the bench): the peer answers min(${TOP_K}, matches) chunks, each of our hits (ours may answer fewer: the relevance cut-off) is a stored chunk of the collection
(item and text unchanged) matching at least one query word, and on the rare phrase (one match) both answer
that chunk first, byte for byte. Before any timing, every query runs ${WARM_ROUNDS} times through both searches (a new
process's WebAssembly is compiled to its fast tier over its first few hundred statements; the goal is a running
server's search). A new process's first ${cold.length} searches of ours, every query in turn: p50 / p99 ${coldFigure}
(not the goal).

${table(['query', 'matches', 'ours p50 / p99 (ms)', 'naive p50 / p99 (ms)', 'naive / ours p50 / p99'], rows)}

Worst p99 of ours ${worstP99.toFixed(2)} ms: ${verdict(worstP99 <= P99_GOAL_MS)}. Most common term: ${common.p50.toFixed(1)}× faster at p50,
${common.p99.toFixed(1)}× at p99: ${verdict(common.p50 >= SPEEDUP_GOAL)}.

Labelled set (${LABELLED.length} visitor questions, ${RELEVANT} planted answers each, scattered through the table):

${table(['question', 'ours: answers in top ' + TOP_K, 'naive: answers in top ' + TOP_K, 'same chunks in both'], quality)}

Answers found: ours ${oursFound}/${total}, naive ${naiveFound}/${total} (top-${TOP_K} overlap ${overlapSum}/${LABELLED.length * TOP_K}): ${verdict(sameQuality)}.`,
  );
  if (url && schema && process.env.BENCH_KEEP_SCHEMA) console.log(`kept schema ${schema} (BENCH_KEEP_SCHEMA) for EXPLAIN`);
  else if (url && schema) await sql.raw(`drop schema if exists "${schema}" cascade`).execute(db);
  await database.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
