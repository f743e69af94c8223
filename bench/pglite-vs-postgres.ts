// Bench 7, PGlite against PostgreSQL: the same CRUD and search micro-suite (the repositories'
// kind of statements through Kysely: insert, read by owner and id, update, list, delete, a
// transaction, and the knowledge search at 10,000 chunks) on the embedded database and on a real
// PostgreSQL, in the same run. Goal: PGlite ≤ 3× PostgreSQL's time per operation.
// PostgreSQL comes from TEST_DATABASE_URL (or BENCH_DATABASE_URL); without one the bench says so
// and stops.
// Peer check (issue 37): after the suite, the same statements must have left and must answer the
// same on both: the three searches' hits (item, item name, text, match kind and score rounded to
// 6 significant digits), and the owner's collections (their names, sorted, and their number) and
// chunk count. Ids (random UUIDs, one set per database) and timestamps are left out of the
// comparison; anything else unequal fails the bench.
//
//   TEST_DATABASE_URL=postgres://... node --import tsx bench/pglite-vs-postgres.ts   (BENCH_OPS=400)
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { parseConfig } from '../apps/server/src/config';
import type { AppContext } from '../apps/server/src/context';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { searchChunks } from '../apps/server/src/modules/knowledge/knowledge.search';
import { pct, table, verdict, writeSection } from './report-support';
import { seededRandom } from './random-support';

const OPS = Number(process.env.BENCH_OPS ?? 300);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 10_000);
const GOAL = 3;
const OWNER = '00000000-0000-4000-8000-00000000b007';
const WORDS = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);

type Op = [name: string, run: (db: Database, i: number) => Promise<unknown>];

async function prepare(database: Database): Promise<{ ctx: AppContext; collection: string }> {
  const db = database.db;
  await migrate(db, database.schema);
  const now = new Date();
  await db
    .insertInto('users')
    .values({
      id: OWNER,
      email: 'bench7@example.com',
      password_hash: 'x',
      first_name: 'B',
      last_name: 'B',
      company_name: null,
      mobile_number: null,
      email_verified_at: now,
      requested_sub_type: null,
      subscribed_since: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const collection = randomUUID();
  await db.insertInto('knowledge_collections').values({ id: collection, owner_id: OWNER, name: 'Search', language: 'en' }).execute();
  const items = Math.ceil(CHUNKS / 100);
  await db
    .insertInto('knowledge_items')
    .values(
      Array.from({ length: items }, (_, i) => ({
        id: `s-item-${i}`,
        owner_id: OWNER,
        collection_id: collection,
        name: `Doc ${i}`,
        kind: 'text' as const,
        content: '',
        status: 'ready' as const,
      })),
    )
    .execute();
  const rand = seededRandom(7);
  for (let i = 0; i < CHUNKS; i += 500) {
    const rows = Array.from({ length: Math.min(500, CHUNKS - i) }, (_, j) => {
      const n = i + j;
      const words = ['acme', ...Array.from({ length: 80 }, () => WORDS[Math.floor(Math.pow(rand(), 3) * WORDS.length)]!)];
      if (n % 20 === 0) words.push('warranty');
      const content = words.join(' ');
      return {
        owner_id: OWNER,
        collection_id: collection,
        item_id: `s-item-${Math.floor(n / 100)}`,
        ord: n % 100,
        content,
        ts_config: 'english',
        tsv: sql`to_tsvector('english'::regconfig, ${content})`,
      };
    });
    await db.insertInto('knowledge_chunks').values(rows).execute();
  }
  // 50 collections to list.
  await db
    .insertInto('knowledge_collections')
    .values(Array.from({ length: 50 }, (_, i) => ({ id: randomUUID(), owner_id: OWNER, name: `List ${i}`, language: 'en' })))
    .execute();
  await sql`analyze`.execute(db);
  const ctx = {
    db,
    database,
    config: parseConfig({ LOG_LEVEL: 'silent' }),
    log: { warn: () => {}, info: () => {}, error: () => {} },
  } as unknown as AppContext;
  return { ctx, collection };
}

function suite(ctx: AppContext, collection: string): Op[] {
  const ids: string[] = [];
  return [
    [
      'insert a row',
      async (d) => {
        const id = randomUUID();
        ids.push(id);
        await d.db.insertInto('knowledge_collections').values({ id, owner_id: OWNER, name: 'New', language: 'en' }).execute();
      },
    ],
    [
      'read a row by owner and id',
      (d, i) =>
        d.db
          .selectFrom('knowledge_collections')
          .selectAll()
          .where('owner_id', '=', OWNER)
          .where('id', '=', ids[i % ids.length]!)
          .executeTakeFirst(),
    ],
    [
      'update a row',
      (d, i) =>
        d.db
          .updateTable('knowledge_collections')
          .set({ name: `Renamed ${i}` })
          .where('owner_id', '=', OWNER)
          .where('id', '=', ids[i % ids.length]!)
          .execute(),
    ],
    [
      'list 50+ rows of an owner',
      (d) =>
        d.db
          .selectFrom('knowledge_collections')
          .selectAll()
          .where('owner_id', '=', OWNER)
          .orderBy('created_at', 'desc')
          .limit(60)
          .execute(),
    ],
    [
      'transaction: lock, update, insert',
      (d, i) =>
        d.db.transaction().execute(async (trx) => {
          await trx.selectFrom('users').select('subscription_type').where('id', '=', OWNER).forUpdate().executeTakeFirst();
          await trx
            .updateTable('knowledge_collections')
            .set({ name: `Tx ${i}` })
            .where('owner_id', '=', OWNER)
            .where('id', '=', ids[i % ids.length]!)
            .execute();
          await trx.insertInto('knowledge_collections').values({ id: randomUUID(), owner_id: OWNER, name: 'Tx', language: 'en' }).execute();
        }),
    ],
    ['delete a row', (d, i) => d.db.deleteFrom('knowledge_collections').where('owner_id', '=', OWNER).where('id', '=', ids[i]!).execute()],
    ['search: rare term (top 10)', () => searchChunks(ctx, OWNER, { collection_ids: [collection], query: 'w2s9 w1a0', top_k: 10 })],
    ['search: term in 5% (top 10)', () => searchChunks(ctx, OWNER, { collection_ids: [collection], query: 'warranty', top_k: 10 })],
    ['search: term in every chunk (top 10)', () => searchChunks(ctx, OWNER, { collection_ids: [collection], query: 'acme', top_k: 10 })],
  ];
}

/** What both databases must answer alike (see the header): ids and timestamps left out. */
async function answers(database: Database, ctx: AppContext, collection: string): Promise<string> {
  const searches = [];
  for (const query of ['w2s9 w1a0', 'warranty', 'acme']) {
    const hits = await searchChunks(ctx, OWNER, { collection_ids: [collection], query, top_k: 10 });
    searches.push(hits.map((h) => [h.item_id, h.item_name, h.text, h.match, Number(h.score.toPrecision(6))]));
  }
  const names = await database.db.selectFrom('knowledge_collections').select('name').where('owner_id', '=', OWNER).execute();
  const chunks = await sql<{ n: number }>`select count(*)::int as n from knowledge_chunks where owner_id = ${OWNER}`.execute(database.db);
  return JSON.stringify({ searches, collections: names.map((r) => r.name).sort(), chunks: chunks.rows[0]!.n });
}

async function measure(database: Database, ops: Op[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const [name, run] of ops) {
    for (let i = 0; i < 10; i++) await run(database, i); // warm-up (the inserts also give the others rows)
    const samples: number[] = [];
    for (let i = 0; i < OPS; i++) {
      const t = performance.now();
      await run(database, i + 10);
      samples.push(performance.now() - t);
    }
    out.set(name, samples);
  }
  return out;
}

async function main(): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.log(
      'pglite-vs-postgres: skipped — no PostgreSQL. Set TEST_DATABASE_URL (or BENCH_DATABASE_URL) to postgres://user:password@host:5432/db to run it.',
    );
    return;
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const pg = await openDatabase({ databaseUrl: url, schema });
  const lite = await openDatabase({});
  const p = await prepare(pg);
  const l = await prepare(lite);
  const pgRes = await measure(pg, suite(p.ctx, p.collection));
  const liteRes = await measure(lite, suite(l.ctx, l.collection));
  const [pgAnswer, liteAnswer] = [await answers(pg, p.ctx, p.collection), await answers(lite, l.ctx, l.collection)];
  if (pgAnswer !== liteAnswer) {
    await sql.raw(`drop schema if exists "${schema}" cascade`).execute(pg.db);
    let at = 0;
    while (pgAnswer[at] === liteAnswer[at]) at++;
    const near = (a: string) => a.slice(Math.max(0, at - 200), at + 200);
    throw new Error(
      `PGlite and PostgreSQL answered differently at ${at}:\n  PostgreSQL …${near(pgAnswer)}…\n  PGlite     …${near(liteAnswer)}…`,
    );
  }

  const alike = JSON.parse(pgAnswer) as { searches: unknown[][]; collections: string[]; chunks: number };
  console.log(
    `pglite-vs-postgres: ${OPS} runs per operation, ${CHUNKS.toLocaleString('en')} chunks for the searches; both answered alike (search hits ${alike.searches.map((h) => h.length).join(' + ')}, ${alike.collections.length} collections, ${alike.chunks} chunks)`,
  );
  console.log('operation                               PostgreSQL p50 / p99 (ms)   PGlite p50 / p99 (ms)   PGlite / PostgreSQL p50');
  const rows: (string | number)[][] = [];
  let worst = 0;
  let sumPg = 0;
  let sumLite = 0;
  for (const [name, pgS] of pgRes) {
    const liteS = liteRes.get(name)!;
    const ratio = pct(liteS, 50) / pct(pgS, 50);
    worst = Math.max(worst, ratio);
    sumPg += pgS.reduce((a, b) => a + b, 0);
    sumLite += liteS.reduce((a, b) => a + b, 0);
    console.log(
      `${name.padEnd(40)} ${pct(pgS, 50).toFixed(3).padStart(8)} / ${pct(pgS, 99).toFixed(3).padEnd(14)} ${pct(liteS, 50).toFixed(3).padStart(8)} / ${pct(liteS, 99).toFixed(3).padEnd(10)} ${ratio.toFixed(2)}x`,
    );
    rows.push([
      name,
      `${pct(pgS, 50).toFixed(3)} / ${pct(pgS, 99).toFixed(3)}`,
      `${pct(liteS, 50).toFixed(3)} / ${pct(liteS, 99).toFixed(3)}`,
      `${ratio.toFixed(2)}×`,
    ]);
  }
  const overall = sumLite / sumPg;
  console.log(
    `whole suite, PGlite / PostgreSQL time: ${overall.toFixed(2)}x   worst operation ${worst.toFixed(2)}x   goal ≤ ${GOAL}x: ${verdict(overall <= GOAL)} (whole suite), ${verdict(worst <= GOAL)} (every operation)`,
  );

  writeSection(
    'pglite-vs-postgres',
    'Bench 7 — PGlite against PostgreSQL',
    `The same statements through the same Kysely code on the embedded PGlite and on PostgreSQL
(loopback TCP, pool of 10), ${OPS} sequential runs each; the searches are the product's
\`searchChunks\` over ${CHUNKS.toLocaleString('en')} chunks. Checked after the suite (a difference fails the bench):
both answer the three searches alike (item, name, text, match kind, score to 6 significant digits) and
hold the same collections (names, sorted; ids and timestamps left out) and chunk count. Goal: PGlite ≤ ${GOAL}× PostgreSQL.

${table(['operation', 'PostgreSQL p50 / p99 (ms)', 'PGlite p50 / p99 (ms)', 'PGlite / PostgreSQL (p50)'], rows)}

Whole suite: PGlite ${overall.toFixed(2)}× PostgreSQL's time (${verdict(overall <= GOAL)}); worst single operation ${worst.toFixed(2)}× (${verdict(worst <= GOAL)}).`,
  );
  await sql.raw(`drop schema if exists "${schema}" cascade`).execute(pg.db);
  await pg.close();
  await lite.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
