// Migration 0691 leaves room on knowledge_lexeme_counts' pages (fillfactor 50) so that an update of
// a count stays on its page. It changes where rows are kept, not what they hold: the counts equal
// migration 0406's formula after inserts, a re-index, the counting of an item's rest and deletes,
// with the setting on, after down and after up again.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';
import { countsByFormula, storedCounts } from '../../test/lexeme-counts';
import { newId } from '../lib/tokens';
import { countChunks } from '../modules/knowledge/knowledge-counts.repository';
import { down, up } from './migrations/0691-knowledge-counts-fillfactor';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const owner = newId();
const TEXTS = ['Refunds are paid within 14 days; ask for a refund by mail.', 'Every bike rental includes a helmet.', 'A bike, a helmet.'];

async function fillfactor(): Promise<string | undefined> {
  const res = await sql<{
    opts: string[] | null;
  }>`select reloptions as opts from pg_class where oid = 'knowledge_lexeme_counts'::regclass`.execute(server.ctx.db);
  return res.rows[0]?.opts?.find((o) => o.startsWith('fillfactor='));
}

/** A collection with a ready item of the three texts and a half-written one (chunks from 1 uncounted). */
async function collectionWithItems(): Promise<{ collection: string; half: string }> {
  const db = server.ctx.db;
  const collection = newId();
  await sql`insert into knowledge_collections (id, owner_id, name) values (${collection}, ${owner}, 'c')`.execute(db);
  const items = [newId(), newId()] as const;
  for (const [i, item] of items.entries()) {
    await sql`insert into knowledge_items (id, owner_id, collection_id, name, kind, status, uncounted_from)
      values (${item}, ${owner}, ${collection}, 'i', 'text', ${i ? 'processing' : 'ready'}, ${i ? 1 : null})`.execute(db);
    await sql`insert into knowledge_chunks (owner_id, collection_id, item_id, ord, content, ts_config, tsv)
      select ${owner}, ${collection}, ${item}, t.ord - 1, t.text, 'english', to_tsvector('english', t.text)
      from unnest(${TEXTS}::text[]) with ordinality as t(text, ord)`.execute(db);
  }
  return { collection, half: items[1] };
}

describe('migration 0691 (room on the lexeme counts pages)', () => {
  beforeAll(async () => {
    await sql`insert into users (id, email, password_hash, first_name, last_name) values (${owner}, ${`${owner}@parla.test`}, 'x', 'O', 'W')`.execute(
      server.ctx.db,
    );
  });

  it('keeps the counts equal to the formula with the setting on, after down and after up', async () => {
    const db = server.ctx.db;
    expect(await fillfactor()).toBe('fillfactor=50');
    const check = async () => {
      const { collection, half } = await collectionWithItems();
      expect(await storedCounts(db, collection)).toEqual(await countsByFormula(db, collection, 'counted'));
      await sql`update knowledge_chunks set ts_config = 'simple', tsv = to_tsvector('simple', content) where collection_id = ${collection}`.execute(
        db,
      );
      expect(await storedCounts(db, collection)).toEqual(await countsByFormula(db, collection, 'counted'));
      await db.transaction().execute((trx) => countChunks(trx, { id: half, owner_id: owner, collection_id: collection }, 1, null));
      expect(await storedCounts(db, collection)).toEqual(await countsByFormula(db, collection, 'all'));
      await sql`delete from knowledge_chunks where item_id = ${half} and ord = 0`.execute(db);
      expect(await storedCounts(db, collection)).toEqual(await countsByFormula(db, collection, 'all'));
      return collection;
    };
    const before = await check();
    await down(db as unknown as Kysely<unknown>);
    expect(await fillfactor()).toBeUndefined();
    const between = await check();
    await up(db as unknown as Kysely<unknown>);
    expect(await fillfactor()).toBe('fillfactor=50');
    await check();
    for (const c of [before, between]) expect(await storedCounts(db, c)).toEqual(await countsByFormula(db, c, 'all'));
  });
});
