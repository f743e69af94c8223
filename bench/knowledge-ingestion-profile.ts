// A profiling aid for Bench 9 (not a bench: no peer, no goal): where the server's CPU goes while the
// knowledge worker ingests the bench's text items on PGlite, per kind of statement (the chunk
// inserts with their triggers, the count ranges, the item updates, …), and how much of the wall
// time is spent outside statements (the pauses). Every PGlite statement's process CPU
// (`process.cpuUsage`) is added to its kind. With BENCH_PROBE=1, GET /api/account_info is asked
// every 50 ms meanwhile (in this process, through app.inject; its statements are counted apart).
//
//   BENCH_ITEMS=30 [BENCH_PROBE=1] node --import tsx bench/knowledge-ingestion-profile.ts
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { build } from '../apps/server/src/app';
import { parseConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { createCollection, createItems } from '../apps/server/src/modules/knowledge/knowledge.service';
import { startKnowledgeWorker } from '../apps/server/src/modules/knowledge/knowledge.worker';
import { ingestionTexts } from './ingestion-text-support';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 30);

const KINDS: [string, RegExp][] = [
  ['begin / commit', /^\s*(begin|commit|rollback)\b/i],
  ['chunk insert (with its triggers)', /^\s*insert into "knowledge_chunks"/i],
  ['count range: counts', /^\s*(insert into knowledge_lexeme_counts|with x as)/i],
  ['count range: item update', /^\s*update knowledge_items set uncounted_from = \$1::int/i],
  ['hold counts', /uncounted_from = least/i],
  ['WAL check', /pg_current_wal_insert_lsn/i],
  ['checkpoint', /^\s*checkpoint/i],
  ['last chunk (resume)', /from "knowledge_chunks"/i],
  ['item claim, lease, finish', /"knowledge_items"|knowledge_items/i],
];
let probing = false;
const fromProbe = new AsyncLocalStorage<boolean>();
const kindOf = (text: string) =>
  (fromProbe.getStore() ? 'request: ' : '') +
  (KINDS.find(([, re]) => re.test(text))?.[0] ?? `other: ${text.replace(/\s+/g, ' ').slice(0, 60)}`);

const spent = new Map<string, { n: number; cpuMs: number; wallMs: number }>();
let profiling = false;
for (const method of ['query', 'exec'] as const) {
  const original = PGlite.prototype[method] as (this: PGlite, text: string, ...rest: unknown[]) => Promise<unknown>;
  (PGlite.prototype as unknown as Record<string, unknown>)[method] = async function (this: PGlite, text: string, ...rest: unknown[]) {
    if (!profiling) return original.call(this, text, ...rest);
    const cpu = process.cpuUsage();
    const t = performance.now();
    try {
      return await original.call(this, text, ...rest);
    } finally {
      const used = process.cpuUsage(cpu);
      const k = kindOf(text);
      const s = spent.get(k) ?? { n: 0, cpuMs: 0, wallMs: 0 };
      spent.set(k, { n: s.n + 1, cpuMs: s.cpuMs + (used.user + used.system) / 1000, wallMs: s.wallMs + performance.now() - t });
    }
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'parla-ingest-profile-'));
const database = await openDatabase({ dataDir });
await migrate(database.db, database.schema);
const SECRET = 'bench-secret-key-0123456789-0123456789-abcdef';
const config = parseConfig({
  APP_KEY: 'bench-app-key-0123456789',
  SECRET_KEY: SECRET,
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  AUTH_RATE_LIMIT_PER_MINUTE: '1000',
});
const { app, ctx } = await build({ config, database, secretKey: SECRET, serveWeb: false });
const ownerId = '00000000-0000-4000-8000-00000000b009';
await database.db
  .insertInto('users')
  .values({
    id: ownerId,
    email: 'profile@example.com',
    password_hash: await hashPassword('profile password 1'),
    first_name: 'P',
    last_name: 'R',
  })
  .execute();
const APP_KEY = 'bench-app-key-0123456789';
const login = await app.inject({
  method: 'POST',
  url: '/api/login',
  headers: { authorization: `Bearer ${APP_KEY}` },
  payload: { email: 'profile@example.com', password: 'profile password 1' },
});
const authorization = `Bearer ${APP_KEY} ${login.json().sessionId as string}`;
const texts = ingestionTexts(ITEMS);
const collection = await createCollection(ctx, ownerId, { name: 'Profile', language: 'en' });
for (let i = 0; i < ITEMS; i += 50)
  await createItems(
    ctx,
    ownerId,
    collection.id,
    texts.slice(i, i + 50).map((content, j) => ({ name: `Item ${i + j}`, knowledge_type: { text: { content } } })),
  );

profiling = true;
probing = process.env.BENCH_PROBE === '1';
let probes = 0;
const probe = async () => {
  while (probing) {
    const t = performance.now();
    await app.inject({ method: 'GET', url: '/api/account_info', headers: { authorization } });
    probes++;
    await new Promise((r) => setTimeout(r, Math.max(0, 50 - (performance.now() - t))));
  }
};
const probeDone = fromProbe.run(true, probe);
const t = performance.now();
const cpu = process.cpuUsage();
const worker = startKnowledgeWorker(ctx, { pollMs: 60_000 });
await worker.drain();
await worker.stop();
probing = false;
await probeDone;
const used = process.cpuUsage(cpu);
const wallMs = performance.now() - t;
profiling = false;

const chunks = Number(
  (await sql<{ n: number }>`select count(*)::int as n from knowledge_chunks where collection_id = ${collection.id}`.execute(database.db))
    .rows[0]!.n,
);
const cpuMs = (used.user + used.system) / 1000;
const inStatements = [...spent.values()].reduce((a, s) => a + s.cpuMs, 0);
const wallInStatements = [...spent.values()].reduce((a, s) => a + s.wallMs, 0);
console.log(
  `${ITEMS} items, ${chunks} chunks, ${probes} probe requests; wall ${(wallMs / 1000).toFixed(1)} s, CPU ${(cpuMs / 1000).toFixed(1)} s`,
);
console.log('| statements | n | per chunk | CPU ms per chunk | wall ms per chunk |');
console.log('| --- | --- | --- | --- | --- |');
for (const [k, s] of [...spent].sort((a, b) => b[1].cpuMs - a[1].cpuMs))
  console.log(`| ${k} | ${s.n} | ${(s.n / chunks).toFixed(2)} | ${(s.cpuMs / chunks).toFixed(2)} | ${(s.wallMs / chunks).toFixed(2)} |`);
console.log(`| outside statements (JS) | | | ${((cpuMs - inStatements) / chunks).toFixed(2)} | |`);
console.log(
  `| all | | | ${(cpuMs / chunks).toFixed(2)} | ${(wallMs / chunks).toFixed(2)} (outside statements ${((wallMs - wallInStatements) / chunks).toFixed(2)}) |`,
);
await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
