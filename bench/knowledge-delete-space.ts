// Disk space after a knowledge collection is deleted on PGlite (issue 21, decision 220). Two
// collections of the same text are bulk-inserted; the older one is deleted (its rows sit before
// the newer one's, so nothing can simply be cut off the end of the files), then the newer one.
// After each delete the data directory is measured as the product leaves it
// (`reclaimKnowledgeSpace`: VACUUM of the knowledge tables, then CHECKPOINT), against the peers
// in the same run: the delete alone, a CHECKPOINT alone, and VACUUM FULL (which rewrites the
// tables and holds the database meanwhile).
//
//   node --import tsx bench/knowledge-delete-space.ts           # 20 items of ~96,000 characters per collection
//   BENCH_ITEMS=40 node --import tsx bench/knowledge-delete-space.ts
// The figures go into bench 9's section of docs/performance.md by hand (this prints them). No goal
// of its own, so no verdict: it prints figures for bench 9's section.
// Peer check (issue 37): after each delete, what is left must be the same on every variant: the
// row count of every knowledge table (KNOWLEDGE_TABLES) and an MD5 of the remaining chunks
// (item, order, text, in that order) must equal those of the plain delete; a difference fails.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { chunkText } from '../apps/server/src/modules/knowledge/knowledge.chunking';
import { insertChunks } from '../apps/server/src/modules/knowledge/knowledge.repository';
import { KNOWLEDGE_TABLES, reclaimKnowledgeSpace } from '../apps/server/src/modules/knowledge/knowledge.space';
import { table } from './report-support';
import { seededRandom } from './random-support';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 20);
const ITEM_CHARS = 96_000;
const VOCAB = Array.from(
  { length: 6000 },
  (_, i) => `${['re', 'con', 'de', 'pro', 'in', 'ex'][i % 6]}${(i * 7919).toString(36)}${['ing', 'ed', 'er', 'ion', 's', ''][i % 5]}`,
);
const rand = seededRandom(11);
function itemText(): string {
  const out: string[] = [];
  let n = 0;
  while (n < ITEM_CHARS) {
    const words = Array.from({ length: 60 }, () => VOCAB[Math.floor(Math.pow(rand(), 2.5) * VOCAB.length)]!);
    const p = `${words.join(' ')}.`;
    out.push(p);
    n += p.length + 2;
  }
  return out.join('\n\n');
}

/** What a delete leaves, as compared between the variants: each knowledge table's row count and
 *  an MD5 of the remaining chunks. */
async function leftOf(db: Awaited<ReturnType<typeof openDatabase>>['db']): Promise<string> {
  const counts: string[] = [];
  for (const t of KNOWLEDGE_TABLES) {
    const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(t)}`.execute(db);
    counts.push(`${t} ${r.rows[0]!.n}`);
  }
  const h = await sql<{ h: string | null }>`
    select md5(string_agg(item_id || ':' || ord || ':' || content, E'\n' order by item_id, ord)) as h from knowledge_chunks`.execute(db);
  return `${counts.join(', ')}; chunks md5 ${h.rows[0]!.h ?? 'none'}`;
}

function dirMb(dir: string): number {
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) bytes += statSync(join(e.parentPath, e.name)).size;
  return bytes / 2 ** 20;
}

const ownerId = '00000000-0000-4000-8000-00000000d220';
const texts = Array.from({ length: ITEMS }, itemText);
const textMb = texts.reduce((n, t) => n + t.length, 0) / 2 ** 20;

async function run(variant: 'delete only' | 'CHECKPOINT' | 'product (VACUUM + CHECKPOINT)' | 'VACUUM FULL + CHECKPOINT') {
  const dataDir = mkdtempSync(join(tmpdir(), 'parla-space-'));
  const database = await openDatabase({ dataDir });
  const { db } = database;
  await migrate(db);
  await db
    .insertInto('users')
    .values({ id: ownerId, email: 'space@example.com', password_hash: 'x', first_name: 'B', last_name: 'S' })
    .execute();
  for (const name of ['older', 'newer']) {
    await db
      .insertInto('knowledge_collections')
      .values({ id: `c-${name}`, owner_id: ownerId, name, language: 'en' })
      .execute();
    await db
      .insertInto('knowledge_items')
      .values(
        texts.map((_, i) => ({
          id: `${name}-${i}`,
          owner_id: ownerId,
          collection_id: `c-${name}`,
          name: `${name} ${i}`,
          kind: 'text' as const,
          content: '',
          status: 'ready' as const,
        })),
      )
      .execute();
    for (const [i, text] of texts.entries()) {
      await insertChunks(
        db,
        chunkText(text).map((content, ord) => ({ owner_id: ownerId, collection_id: `c-${name}`, item_id: `${name}-${i}`, ord, content })),
        'english',
      );
    }
  }
  await sql`checkpoint`.execute(db);
  const full = dirMb(join(dataDir, 'pg'));
  const after: number[] = [];
  const ms: number[] = [];
  const left: string[] = [];
  for (const name of ['older', 'newer']) {
    await db.deleteFrom('knowledge_collections').where('id', '=', `c-${name}`).execute();
    const t = performance.now();
    if (variant === 'CHECKPOINT') await sql`checkpoint`.execute(db);
    if (variant === 'product (VACUUM + CHECKPOINT)') await reclaimKnowledgeSpace(db);
    if (variant === 'VACUUM FULL + CHECKPOINT') {
      await sql.raw(`vacuum full ${KNOWLEDGE_TABLES.join(', ')}`).execute(db);
      await sql`checkpoint`.execute(db);
    }
    ms.push(performance.now() - t);
    after.push(dirMb(join(dataDir, 'pg')));
    left.push(await leftOf(db));
  }
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { variant, full, after, ms, left };
}

const rows: string[][] = [];
let plain: string[] | null = null;
for (const variant of ['delete only', 'CHECKPOINT', 'product (VACUUM + CHECKPOINT)', 'VACUUM FULL + CHECKPOINT'] as const) {
  const r = await run(variant);
  plain ??= r.left;
  for (const [i, left] of r.left.entries())
    if (left !== plain[i]) throw new Error(`${variant} left ${left} after delete ${i + 1}; the plain delete left ${plain[i]}`);
  rows.push([variant, r.full.toFixed(0), r.after[0]!.toFixed(0), r.ms[0]!.toFixed(0), r.after[1]!.toFixed(0), r.ms[1]!.toFixed(0)]);
  console.log(rows.at(-1)!.join(' | '));
}
const body = [
  `Two collections of ${ITEMS} text items each (${textMb.toFixed(1)} MB of text per collection), PGlite on disk; data directory in MB.`,
  `Checked: after each delete every variant left the same rows as the plain delete (each knowledge table's row count, an MD5 of the remaining chunks): ${plain!.join(' | ')}.`,
  '',
  table(['after each delete', 'both stored', 'older deleted', 'step ms', 'newer deleted too', 'step ms'], rows),
].join('\n');
console.log(body);
process.exit(0);
