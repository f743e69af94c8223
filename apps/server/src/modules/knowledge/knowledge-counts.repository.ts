// The ingestion writer's share of the lexeme counts (decision 408, migration 0690): an item's
// chunks are written uncounted and then added to knowledge_lexeme_counts a range at a time, so the
// words its chunks share are upserted once per range instead of once per statement of chunks.
// knowledge_items.uncounted_from says where the item's uncounted chunks start (null: none); the
// triggers of knowledge_chunks leave those chunks out of every insert, delete and re-index.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

/**
 * Before the writer writes chunks from `from` on: they (and any uncounted before them) stay out
 * of the counts. Answers where the item's uncounted chunks start, or undefined when it is gone.
 */
export async function holdCounts(db: Q, itemId: string, from: number): Promise<number | undefined> {
  const res = await sql<{ uncounted_from: number }>`
    update knowledge_items set uncounted_from = least(coalesce(uncounted_from, ${from}::int), ${from}::int)
    where id = ${itemId} returning uncounted_from
  `.execute(db);
  return res.rows[0]?.uncounted_from;
}

/** Where the item's uncounted chunks start: null when every chunk is counted, undefined when the
 *  item is gone. */
export async function uncountedFrom(db: Q, itemId: string): Promise<number | null | undefined> {
  const row = await db.selectFrom('knowledge_items').select('uncounted_from').where('id', '=', itemId).executeTakeFirst();
  return row?.uncounted_from;
}

/**
 * Adds the item's chunks of ord in [from, to) to the counts — all from `from` on when `to` is
 * null, and then the item has none left uncounted. The item's row is updated first, so a delete
 * of the item waits for this transaction (and its trigger then sees the chunks as counted). False
 * when the item is gone or its uncounted chunks do not start at `from` (nothing is counted).
 */
export async function countChunks(
  trx: Transaction<DB>,
  item: { id: string; owner_id: string; collection_id: string },
  from: number,
  to: number | null,
): Promise<boolean> {
  const moved = await sql`
    update knowledge_items set uncounted_from = ${to}::int where id = ${item.id} and uncounted_from = ${from}::int
  `.execute(trx);
  if (Number(moved.numAffectedRows ?? 0) === 0) return false;
  // The chunks' own owner and collection are the item's (the writer copies them). Grouped by the
  // configuration and the lexeme only (grouping by the two ids as well took twice the time), in
  // the triggers' order (collection, configuration, lexeme), so concurrent upserts queue instead
  // of deadlocking. (An UPDATE of the existing rows and an INSERT of the new ones cost a third less
  // on PGlite, but the planner joined them by reading every count row of the collection, whatever
  // its size, and an UPDATE … FROM takes its rows in no set order: decision 406, amendment (4).)
  const range = sql`c.item_id = ${item.id} and c.ord >= ${from}::int and (${to}::int is null or c.ord < ${to}::int)`;
  await sql`
    insert into knowledge_lexeme_counts (owner_id, collection_id, ts_config, lexeme, df)
    select ${item.owner_id}, ${item.collection_id}, ts_config, lexeme, count(*)::int
    from (
      select c.ts_config, l.lexeme from knowledge_chunks c cross join lateral unnest(tsvector_to_array(c.tsv)) as l(lexeme) where ${range}
      union all
      select c.ts_config, '' from knowledge_chunks c where ${range}
    ) x
    group by ts_config, lexeme
    order by ts_config, lexeme
    on conflict (collection_id, ts_config, lexeme) do update set df = knowledge_lexeme_counts.df + excluded.df
  `.execute(trx);
  return true;
}
