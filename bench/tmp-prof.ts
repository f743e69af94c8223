import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
const N = 100000;
const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const zipf = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(Math.pow(rand(), 3) * VOCAB.length))]!;
const database = await openDatabase({});
await migrate(database.db);
const db = database.db;
await db.insertInto('users').values({ id: 'o', email: 'b@example.com', password_hash: 'x', first_name: 'B', last_name: 'B' }).execute();
await db.insertInto('knowledge_collections').values({ id: 'c', owner_id: 'o', name: 'B', language: 'en', index_version: 1 }).execute();
await db.insertInto('knowledge_items').values(Array.from({ length: N / 100 }, (_, i) => ({ id: `i${i}`, owner_id: 'o', collection_id: 'c', name: `D ${i}`, kind: 'text' as const, content: '', status: 'ready' as const, chunk_count: 100 }))).execute();
for (let i = 0; i < N; i += 1000) {
  const rows = Array.from({ length: 1000 }, (_, j) => {
    const n = i + j;
    const w = ['acme'];
    for (let k = 1; k < 120; k++) w.push(zipf());
    if (n % 10 === 0) w.push('refund', 'policy');
    if (n % 100 === 7) w.push('lisbon', 'workshop');
    const content = w.join(' ');
    return { owner_id: 'o', collection_id: 'c', item_id: `i${Math.floor(n / 100)}`, ord: n % 100, content, ts_config: 'english', tsv: sql`to_tsvector('english', ${content})` };
  });
  await db.insertInto('knowledge_chunks').values(rows).execute();
}
await sql`analyze`.execute(db);
for (const w of ['acm', 'refund', 'polici']) {
  const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze select count(*) from (select 1 from knowledge_chunks k where k.owner_id = 'o' and k.collection_id in ('c') and k.ts_config = 'english' and k.tsv @@ quote_literal(${w}::text)::tsquery limit 300) s`.execute(db);
  console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
}
process.env.EXPLAIN = '1';
const { rankChunks } = await import('../apps/server/src/modules/knowledge/knowledge.rank');
const ctx = { db } as never;
for (const q of ['acme refund policy', 'acme']) { const t = performance.now(); await rankChunks(ctx, 'o', ['c'], 'english', q, 20); console.log(q, performance.now() - t); }
await database.close();
