// Migration 0670 computes each chunk's length once in the impact rows' trigger (it was once per
// row). The rows must be exactly those of migration 0402's formula: compared here with that
// formula run over the same chunks, after inserts and after a re-index's update, and again after
// down (the trigger as 0402 wrote it) and up.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';
import { newId } from '../lib/tokens';
import { down, up } from './migrations/0670-knowledge-impact-rows-once';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const TEXTS = [
  'Refunds: a refund is paid within 14 days. Ask for a refund by mail; the refund form is online.',
  'Bikes and helmets. Every bike rental includes a helmet, and helmets come in three sizes. Bike bike bike.',
  'Short one. Short.',
];

/** The collection's impact rows as stored, and as migration 0402's formula gives them. */
async function storedAndExpected(collectionId: string) {
  const db = server.ctx.db;
  const stored = await sql<{ row: string }>`
    select chunk_id || ' ' || ts_config || ' ' || lexeme || ' ' || tf || ' ' || impact::text as row
    from knowledge_chunk_terms where collection_id = ${collectionId} order by chunk_id, lexeme`.execute(db);
  const expected = await sql<{ row: string }>`
    select c.id || ' ' || c.ts_config || ' ' || t.lexeme || ' ' || cardinality(t.positions) || ' '
      || ((1.6449340668 - 1.0 / (cardinality(t.positions) + 0.5)) / ln(c.len + 1.0))::real::text as row
    from (
      select k.id, k.ts_config, k.tsv, (select sum(coalesce(cardinality(x.positions), 1)) from unnest(k.tsv) x) as len
      from knowledge_chunks k where k.collection_id = ${collectionId}
    ) c, unnest(c.tsv) t
    where cardinality(t.positions) >= 2
    order by c.id, t.lexeme`.execute(db);
  return { stored: stored.rows.map((r) => r.row), expected: expected.rows.map((r) => r.row) };
}

async function collectionWithChunks(): Promise<string> {
  const db = server.ctx.db;
  const owner = newId();
  const collection = newId();
  const item = newId();
  await sql`insert into users (id, email, password_hash, first_name, last_name) values (${owner}, ${`${owner}@parla.test`}, 'x', 'O', 'W')`.execute(
    db,
  );
  await sql`insert into knowledge_collections (id, owner_id, name) values (${collection}, ${owner}, 'c')`.execute(db);
  await sql`insert into knowledge_items (id, owner_id, collection_id, name, kind, status) values (${item}, ${owner}, ${collection}, 'i', 'text', 'ready')`.execute(
    db,
  );
  for (const [ord, text] of TEXTS.entries())
    await sql`insert into knowledge_chunks (owner_id, collection_id, item_id, ord, content, ts_config, tsv)
      values (${owner}, ${collection}, ${item}, ${ord}, ${text}, 'english', to_tsvector('english', ${text}))`.execute(db);
  return collection;
}

describe('migration 0670 (impact rows with the length computed once per chunk)', () => {
  it('writes the same impact rows as migration 0402 on insert and on a re-index, before and after down/up', async () => {
    const db = server.ctx.db;
    for (const step of ['migrated', 'down', 'up']) {
      if (step === 'down') await down(db as unknown as Kysely<unknown>);
      if (step === 'up') await up(db as unknown as Kysely<unknown>);
      const collection = await collectionWithChunks();
      const inserted = await storedAndExpected(collection);
      expect(inserted.stored.length, step).toBeGreaterThan(3);
      expect(inserted.stored, step).toEqual(inserted.expected);
      // A re-index rewrites the chunks (update trigger): the rows follow the new configuration.
      await sql`update knowledge_chunks set ts_config = 'simple', tsv = to_tsvector('simple', content) where collection_id = ${collection}`.execute(
        db,
      );
      const reindexed = await storedAndExpected(collection);
      expect(
        reindexed.stored.every((r) => r.includes(' simple ')),
        step,
      ).toBe(true);
      expect(reindexed.stored, step).toEqual(reindexed.expected);
    }
  });
});
