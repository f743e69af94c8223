// Test-only: a collection's lexeme counts (decision 408) as stored, and as the formula of migration
// 0406 gives them from its chunks — over every chunk (as the counts were kept until migration
// 0690), or over the chunks counted so far (an item's chunks from its uncounted_from on are not).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../src/db/schema';

/** "config lexeme df" rows, sorted. */
export async function storedCounts(db: Kysely<DB>, collectionId: string): Promise<string[]> {
  const res = await sql<{ row: string }>`
    select ts_config || ' ' || lexeme || ' ' || df as row from knowledge_lexeme_counts
    where collection_id = ${collectionId} order by ts_config, lexeme`.execute(db);
  return res.rows.map((r) => r.row);
}

/** The same rows computed from the chunks; `which` 'counted' needs migration 0690's column. */
export async function countsByFormula(db: Kysely<DB>, collectionId: string, which: 'all' | 'counted'): Promise<string[]> {
  const counted =
    which === 'all' ? sql`true` : sql`not exists (select 1 from knowledge_items i where i.id = c.item_id and i.uncounted_from <= c.ord)`;
  const res = await sql<{ row: string }>`
    select ts_config || ' ' || lexeme || ' ' || count(*) as row from (
      select c.ts_config, l.lexeme from knowledge_chunks c cross join lateral unnest(tsvector_to_array(c.tsv)) as l(lexeme)
      where c.collection_id = ${collectionId} and ${counted}
      union all
      select c.ts_config, '' from knowledge_chunks c where c.collection_id = ${collectionId} and ${counted}
    ) x group by ts_config, lexeme order by ts_config, lexeme`.execute(db);
  return res.rows.map((r) => r.row);
}
