// A check for speed-only changes to the knowledge search (issue 37, decision 424): dumps every
// answer (chunks in order with their full-precision scores and coincidental marks; the hits sent
// at the default cut-off and with none) over Bench 4's data and questions, the tuning halves
// (tuning.json only: the held-out halves are never read here) and Bench 10's own set, so that two
// versions of the code can be diffed: any difference means the change was not speed only.
//   node --import tsx bench/knowledge-search-answers.ts bench4 > before.jsonl   # 100,000 chunks
//   node --import tsx bench/knowledge-search-answers.ts corpora > before.jsonl
// Bench 4's data is loaded once (5 minutes) and kept as a PGlite dump in the temp directory.
// With bench4, SEARCH_TIME=1 prints each query's CPU and wall p50 / p99, SEARCH_STATEMENTS=1 the
// time of each statement a search issues, SEARCH_EXPLAIN='query' each statement's plan, SEARCH_GC=1
// each query's heap bytes allocated per search and the collections of a series of 40 (after
// Bench 4's warm-up), SEARCH_HEAPPROF=dir a sampling heap profile of each query's series (decision 424).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CompiledQuery, sql } from 'kysely';
import { parseConfig } from '../apps/server/src/config';
import type { AppContext } from '../apps/server/src/context';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { searchChunks } from '../apps/server/src/modules/knowledge/knowledge.search';
import { rankChunks } from '../apps/server/src/modules/knowledge/knowledge-rank.repository';
import { effectiveLanguage, textSearchConfig } from '../apps/server/src/modules/knowledge/knowledge.language';
import { namedWords } from '../apps/server/src/modules/knowledge/knowledge.background';
import { meaningfulWords } from '../apps/server/src/modules/knowledge/knowledge.query';
import { findCollections } from '../apps/server/src/modules/knowledge/knowledge.repository';
import { knowledgeApi } from './knowledge-api-support';
import { loadCorpora } from './knowledge-heldout-support';
import { CRAWL_PAGES, DOCX_ITEMS, PDF_ITEMS, QUESTIONS, TEXT_ITEMS, URL_PAGES } from './knowledge-quality-data';
import { CHUNKS, COLLECTION, LABELLED, loadBench4Data, OWNER } from './knowledge-search-data';
import { garbageOf, heapProfileOf } from './knowledge-search-gc-support';

const out: string[] = [];
const emit = (o: unknown) => out.push(JSON.stringify(o));

async function answersFor(ctx: AppContext, owner: string, collection: string, corpus: string, q: string, topK: number) {
  const [col] = await findCollections(ctx.db, owner, [collection]);
  const language = effectiveLanguage(col!);
  const config = await textSearchConfig(ctx.db, language);
  const words = meaningfulWords(q, language);
  const ranked = words.length ? await rankChunks(ctx, owner, [collection], config, words, 40, { language, named: namedWords(q) }) : [];
  const hits = await searchChunks(ctx, owner, { collection_ids: [collection], query: q, top_k: topK });
  const all = await searchChunks(ctx, owner, { collection_ids: [collection], query: q, top_k: 20, score_threshold: 0 });
  const sig = (h: { item_name: string; text: string; score: number }) =>
    `${h.item_name}:${h.text.length}:${h.text.slice(0, 40)}:${h.score}`;
  emit({
    corpus,
    q,
    ranked: ranked.map((r) => [`${r.item_name}:${r.content.length}:${r.content.slice(0, 40)}`, r.score, r.raw, r.coincidental]),
    hits: hits.map(sig),
    all: all.map(sig),
  });
}

// ---- Bench 4's data, exactly as bench/knowledge-search.ts writes it (copied generator).
async function bench4Database(): Promise<Database> {
  // In memory, as the bench runs it, from a dump of a directory loaded once.
  const dump = join(tmpdir(), `parla-bench4-${CHUNKS}.tar`);
  if (existsSync(dump)) return openDatabase({ loadDataDir: new Blob([readFileSync(dump)]) });
  const dataDir = join(tmpdir(), `parla-bench4-${CHUNKS}`);
  const database = await openDatabase({ dataDir });
  await migrate(database.db, database.schema);
  await loadBench4Data(database.db);
  // The load leaves gigabytes of WAL (no checkpoint ran): the dump outgrew a typed array (8.5 GB).
  await sql`checkpoint`.execute(database.db);
  writeFileSync(dump, Buffer.from(await (await database.dump!()).arrayBuffer()));
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  return openDatabase({ loadDataDir: new Blob([readFileSync(dump)]) });
}

const BENCH4_QUERIES = ['unicorn tandem rental', 'workshop', 'refund', 'acme refund policy?', 'acme'];

async function bench4(): Promise<void> {
  const database = await bench4Database();
  const ctx = {
    db: database.db,
    database,
    config: parseConfig({ LOG_LEVEL: 'silent' }),
    log: { warn: () => {}, info: () => {}, error: () => {} },
  } as unknown as AppContext;
  if (process.env.SEARCH_EXPLAIN) {
    const seen: { sql: string; parameters: readonly unknown[] }[] = [];
    const ex = database.db.getExecutor() as unknown as {
      executeQuery: (q: { sql: string; parameters: readonly unknown[] }, id: unknown) => Promise<unknown>;
    };
    const orig = ex.executeQuery.bind(ex);
    ex.executeQuery = (q, id) => {
      seen.push(q);
      return orig(q, id);
    };
    await searchChunks(ctx, OWNER, { collection_ids: [COLLECTION], query: process.env.SEARCH_EXPLAIN, top_k: 10 });
    ex.executeQuery = orig;
    for (const q of seen) {
      for (let i = 0; i < 3; i++) await database.db.executeQuery(CompiledQuery.raw(q.sql, [...q.parameters]));
      const plan = await database.db.executeQuery(CompiledQuery.raw(`explain (analyze, buffers, summary) ${q.sql}`, [...q.parameters]));
      console.log(q.sql.replace(/\s+/g, ' ').slice(0, 80));
      console.log((plan.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n'));
    }
  } else if (process.env.SEARCH_STATEMENTS) {
    // Each statement's wall time (PGlite runs in this process: its time is CPU time here).
    const times = new Map<string, number[]>();
    const ex = database.db.getExecutor() as unknown as { executeQuery: (q: { sql: string }, id: unknown) => Promise<unknown> };
    const orig = ex.executeQuery.bind(ex);
    ex.executeQuery = async (q, id) => {
      const t = performance.now();
      const r = await orig(q, id);
      const key = q.sql.replace(/\s+/g, ' ').slice(0, 70);
      times.set(key, [...(times.get(key) ?? []), performance.now() - t]);
      return r;
    };
    for (let i = 0; i < 30; i++)
      for (const q of BENCH4_QUERIES) await searchChunks(ctx, OWNER, { collection_ids: [COLLECTION], query: q, top_k: 10 });
    for (const q of BENCH4_QUERIES) {
      const one = () => searchChunks(ctx, OWNER, { collection_ids: [COLLECTION], query: q, top_k: 10 });
      for (let i = 0; i < 3; i++) await one();
      times.clear();
      const t = performance.now();
      for (let i = 0; i < 20; i++) await one();
      console.log(`${q}: ${((performance.now() - t) / 20).toFixed(2)} ms per search`);
      for (const [k, v] of times) console.log(`   ${(v.reduce((a, b) => a + b, 0) / 20).toFixed(2)} ms x${v.length / 20} ${k}`);
    }
  } else if (process.env.SEARCH_GC || process.env.SEARCH_HEAPPROF) {
    const search = (q: string) => searchChunks(ctx, OWNER, { collection_ids: [COLLECTION], query: q, top_k: 10 });
    // Bench 4's warm-up: every query 20 times (its naive peer aside).
    for (let i = 0; i < 20; i++) for (const q of BENCH4_QUERIES) await search(q);
    const runs = Number(process.env.SEARCH_RUNS ?? 40);
    for (const q of BENCH4_QUERIES) {
      if (process.env.SEARCH_HEAPPROF) {
        console.log(`${q}:`);
        await heapProfileOf(() => search(q), runs, join(process.env.SEARCH_HEAPPROF, `${q.replace(/\W+/g, '-')}.heapprofile`));
        continue;
      }
      const g = await garbageOf(() => search(q), runs);
      console.log(
        `${q.padEnd(24)} ${(g.bytesPerRun / 1024).toFixed(1).padStart(7)} KiB per search   ${runs} searches: ${g.scavenges} scavenges, ${g.markCompacts} mark-compacts, pause ${g.pauseMs.toFixed(1)} ms (longest ${g.longestMs.toFixed(1)})   array buffers ${(g.arrayBuffers / 1048576).toFixed(1)} MiB`,
      );
    }
  } else if (process.env.SEARCH_TIME) {
    const runs = Number(process.env.SEARCH_RUNS ?? 40);
    const order = process.env.SEARCH_ORDER ? process.env.SEARCH_ORDER.split(',').map((i) => BENCH4_QUERIES[Number(i)]!) : BENCH4_QUERIES;
    for (const q of order) {
      const one = () => searchChunks(ctx, OWNER, { collection_ids: [COLLECTION], query: q, top_k: 10 });
      for (let i = 0; i < 3; i++) await one();
      const cpu: number[] = [];
      const wall: number[] = [];
      for (let i = 0; i < runs; i++) {
        const c = process.cpuUsage();
        const t = performance.now();
        await one();
        wall.push(performance.now() - t);
        const d = process.cpuUsage(c);
        cpu.push((d.user + d.system) / 1000);
      }
      const p = (a: number[], x: number) => [...a].sort((m, n) => m - n)[Math.min(a.length - 1, Math.floor(x * a.length))]!.toFixed(2);
      console.log(`${q.padEnd(24)} cpu p50 ${p(cpu, 0.5)} p99 ${p(cpu, 0.99)}   wall p50 ${p(wall, 0.5)} p99 ${p(wall, 0.99)} ms`);
    }
  } else {
    for (const q of [...BENCH4_QUERIES, ...LABELLED.map((l) => l.question)]) await answersFor(ctx, OWNER, COLLECTION, 'bench4', q, 10);
  }
  await database.close();
}

async function corpora(): Promise<void> {
  const sets = [
    // The tuning halves only: loadCorpora also reads the held-out files (to hash them), whose
    // questions are not used here.
    ...loadCorpora().map((c) => ({ id: c.id, items: c.items, qs: c.tuning.map((x) => x.q) })),
    {
      id: 'bench10',
      items: [
        ...TEXT_ITEMS,
        ...URL_PAGES.map((p) => ({ name: p.title, content: `${p.title}\n\n${p.body}` })),
        ...CRAWL_PAGES.filter((p) => p.body && !URL_PAGES.some((u) => u.path === p.path)).map((p) => ({
          name: p.title,
          content: `${p.title}\n\n${p.body}`,
        })),
        ...PDF_ITEMS.map((p) => ({ name: p.name, content: p.lines.join('\n') })),
        ...DOCX_ITEMS.map((d) => ({ name: d.name, content: [...d.paragraphs, ...(d.table ?? []).map((r) => r.join(' | '))].join('\n\n') })),
      ],
      qs: QUESTIONS.map((x) => x.q),
    },
  ];
  const { bench, worker, kb } = await knowledgeApi();
  for (const c of sets) {
    const collection = (await kb('POST', '/kb/v1/collections', { name: c.id })) as { id: string };
    for (let i = 0; i < c.items.length; i += 50)
      await kb('POST', `/kb/v1/collections/${collection.id}/items/batch`, {
        items: c.items.slice(i, i + 50).map((t) => ({ name: t.name, knowledge_type: { text: { content: t.content } } })),
      });
    await worker.drain();
    // Asked twice: the second time finds whatever a cache of the first left behind.
    for (const pass of [1, 2]) for (const q of c.qs) await answersFor(bench.ctx, bench.ownerId, collection.id, `${c.id}#${pass}`, q, 5);
  }
  await worker.stop();
  await bench.close();
}

// Not a bench: `npm run bench` runs every file here, and without a corpus this only says how to use it.
const mode = process.argv[2];
if (mode !== 'bench4' && mode !== 'corpora') {
  console.log('a check, not a bench: node --import tsx bench/knowledge-search-answers.ts bench4|corpora > answers.jsonl');
  process.exit(0);
}
(mode === 'bench4' ? bench4() : corpora())
  .then(() => {
    if (out.length) process.stdout.write(out.join('\n') + '\n');
  })
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
