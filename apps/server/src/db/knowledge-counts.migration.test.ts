// Migration 0690 keeps an item's chunks out of the lexeme counts until the writer counts them
// (knowledge_items.uncounted_from). The counts must equal migration 0406's formula over the
// chunks counted, and over every chunk once none is left uncounted: after inserts, a re-index's
// update, the counting of the rest, deletes of chunks and of a half-written item; after down
// (which counts what was left uncounted: 0406's triggers count every chunk) and after up again.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';
import { countsByFormula, storedCounts } from '../../test/lexeme-counts';
import { newId } from '../lib/tokens';
import { countChunks } from '../modules/knowledge/knowledge-counts.repository';
import { deleteSomeChunksOfItem } from '../modules/knowledge/knowledge.repository';
import { down, up } from './migrations/0690-knowledge-counts-when-ready';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const TEXTS = [
  'Refunds: a refund is paid within 14 days. Ask for a refund by mail; the refund form is online.',
  'Bikes and helmets. Every bike rental includes a helmet, and helmets come in three sizes.',
  'Short one about a bike.',
];

const owner = newId();

/** An item with the three texts as chunks; `uncountedFrom` set before they are inserted (0690). */
async function itemWithChunks(collection: string, uncountedFrom?: number): Promise<string> {
  const db = server.ctx.db;
  const item = newId();
  const status = uncountedFrom === undefined ? 'ready' : 'processing';
  await sql`insert into knowledge_items (id, owner_id, collection_id, name, kind, status) values (${item}, ${owner}, ${collection}, 'i', 'text', ${status})`.execute(
    db,
  );
  if (uncountedFrom !== undefined) await sql`update knowledge_items set uncounted_from = ${uncountedFrom} where id = ${item}`.execute(db);
  // One statement, as the writer inserts a batch.
  await sql`insert into knowledge_chunks (owner_id, collection_id, item_id, ord, content, ts_config, tsv)
    select ${owner}, ${collection}, ${item}, t.ord - 1, t.text, 'english', to_tsvector('english', t.text)
    from unnest(${TEXTS}::text[]) with ordinality as t(text, ord)`.execute(db);
  return item;
}

async function collection(): Promise<string> {
  const id = newId();
  await sql`insert into knowledge_collections (id, owner_id, name) values (${id}, ${owner}, 'c')`.execute(server.ctx.db);
  return id;
}

const counted = (c: string) => countsByFormula(server.ctx.db, c, 'counted');
const all = (c: string) => countsByFormula(server.ctx.db, c, 'all');
const stored = (c: string) => storedCounts(server.ctx.db, c);

describe('migration 0690 (lexeme counts added when an item is written)', () => {
  beforeAll(async () => {
    await sql`insert into users (id, email, password_hash, first_name, last_name) values (${owner}, ${`${owner}@parla.test`}, 'x', 'O', 'W')`.execute(
      server.ctx.db,
    );
  });

  it('counts only counted chunks through inserts, a re-index, the counting of the rest and deletes; down counts the rest', async () => {
    const db = server.ctx.db;
    const c = await collection();
    await itemWithChunks(c);
    const half = await itemWithChunks(c, 1);
    expect((await stored(c)).length).toBeGreaterThan(10);
    expect(await stored(c)).toEqual(await counted(c));
    expect(await stored(c)).not.toEqual(await all(c));

    // A re-index rewrites every chunk: the uncounted ones stay out, in their new configuration.
    await sql`update knowledge_chunks set ts_config = 'simple', tsv = to_tsvector('simple', content) where collection_id = ${c}`.execute(
      db,
    );
    expect((await stored(c)).every((r) => r.startsWith('simple '))).toBe(true);
    expect(await stored(c)).toEqual(await counted(c));

    // The writer counts the rest: then every chunk is in, and the item has none left uncounted.
    await db.transaction().execute((trx) => countChunks(trx, { id: half, owner_id: owner, collection_id: c }, 1, 2));
    expect(await stored(c)).toEqual(await counted(c));
    expect(await db.transaction().execute((trx) => countChunks(trx, { id: half, owner_id: owner, collection_id: c }, 1, null))).toBe(false);
    await db.transaction().execute((trx) => countChunks(trx, { id: half, owner_id: owner, collection_id: c }, 2, null));
    expect(await stored(c)).toEqual(await all(c));
    const row = await db.selectFrom('knowledge_items').select('uncounted_from').where('id', '=', half).executeTakeFirstOrThrow();
    expect(row.uncounted_from).toBeNull();

    // A half-written item deleted (its chunks go by the cascade): nothing it never added is
    // subtracted from the counts of a ready item's words.
    const d = await collection();
    await itemWithChunks(d);
    const before = await stored(d);
    const gone = await itemWithChunks(d, 2);
    expect(await stored(d)).not.toEqual(before);
    await sql`delete from knowledge_items where id = ${gone}`.execute(db);
    expect(await stored(d)).toEqual(before);
    // Chunks deleted from the end of an item, counted or not (clearing a failed item).
    const failing = await itemWithChunks(d, 1);
    expect(await deleteSomeChunksOfItem(db, failing, 2)).toBe(2);
    expect(await stored(d)).toEqual(await counted(d));
    expect(await stored(d)).not.toEqual(before);
    expect(await deleteSomeChunksOfItem(db, failing, 2)).toBe(1);
    expect(await stored(d)).toEqual(before);

    // Down: what was left uncounted is counted (0406's triggers count every chunk).
    const left = await collection();
    await itemWithChunks(left, 0);
    await itemWithChunks(left, 2);
    expect(await stored(left)).not.toEqual(await all(left));
    await down(db as unknown as Kysely<unknown>);
    expect(await stored(left)).toEqual(await all(left));
    for (const x of [c, d]) expect(await stored(x)).toEqual(await all(x));
    const plain = await collection();
    await itemWithChunks(plain);
    expect(await stored(plain)).toEqual(await all(plain));
    await sql`update knowledge_chunks set ts_config = 'simple', tsv = to_tsvector('simple', content) where collection_id = ${plain}`.execute(
      db,
    );
    expect(await stored(plain)).toEqual(await all(plain));

    // Up again: existing chunks are all counted (nothing to back-fill), new half-written ones are not.
    await up(db as unknown as Kysely<unknown>);
    for (const x of [c, d, left, plain]) expect(await stored(x)).toEqual(await all(x));
    const again = await itemWithChunks(plain, 1);
    expect(await stored(plain)).toEqual(await counted(plain));
    await sql`delete from knowledge_collections where id = ${plain}`.execute(db);
    expect(await stored(plain)).toEqual([]);
    expect(await db.selectFrom('knowledge_chunks').select('id').where('item_id', '=', again).execute()).toEqual([]);
  });
});
