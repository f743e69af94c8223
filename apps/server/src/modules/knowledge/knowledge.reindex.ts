// Background re-indexing of a collection's chunks (docs/decisions/407): after the migration that
// put item names into the chunks' text and detects languages, after a detected language, and
// after the user changes a collection's language. Never at start-up and never in one long
// statement: short batches rewritten by id, each its own statement, with a pause on PGlite (as
// ingestion does, decision 406). Until a collection is done, search looks in both the old
// configuration (reindex_from) and the new one.
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { detectLanguage, effectiveLanguage, textSearchConfig } from './knowledge.language';

/** Chunks written by this version index the item's name with the detected language's stemming. */
export const KNOWLEDGE_INDEX_VERSION = 1;
const BATCH_ROWS = 100;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The first chunks' text of a collection, to detect its language. */
async function sampleText(ctx: AppContext, collectionId: string): Promise<string> {
  const rows = await ctx.db.selectFrom('knowledge_chunks').select('content').where('collection_id', '=', collectionId).orderBy('id').limit(4).execute();
  return rows.map((r) => r.content).join('\n');
}

/** A collection of no chosen language takes the detected language of its first text. */
export async function detectCollectionLanguage(ctx: AppContext, collectionId: string, text: string): Promise<void> {
  const c = await ctx.db.selectFrom('knowledge_collections').select(['language', 'detected_language']).where('id', '=', collectionId).executeTakeFirst();
  if (!c || c.language || c.detected_language) return;
  const code = detectLanguage(text);
  if (!code) return;
  const had = await ctx.db.selectFrom('knowledge_chunks').select('id').where('collection_id', '=', collectionId).limit(1).executeTakeFirst();
  await ctx.db
    .updateTable('knowledge_collections')
    .set(had ? { detected_language: code, index_version: 0 } : { detected_language: code })
    .where('id', '=', collectionId)
    .where('detected_language', 'is', null)
    .execute();
}

/** Re-indexes one collection that waits for it; answers whether there was one. */
export async function reindexNext(ctx: AppContext, isStopped: () => boolean = () => false): Promise<boolean> {
  const c = await ctx.db
    .selectFrom('knowledge_collections')
    .select(['id', 'language', 'detected_language', 'updated_at'])
    .where('index_version', '<', KNOWLEDGE_INDEX_VERSION)
    .orderBy('updated_at')
    .limit(1)
    .executeTakeFirst();
  if (!c) return false;
  if (!c.language && !c.detected_language) {
    const code = detectLanguage(await sampleText(ctx, c.id));
    if (code) {
      await ctx.db.updateTable('knowledge_collections').set({ detected_language: code }).where('id', '=', c.id).execute();
      c.detected_language = code;
    }
  }
  const config = await textSearchConfig(ctx.db, effectiveLanguage(c));
  const old = await ctx.db
    .selectFrom('knowledge_chunks')
    .select('ts_config')
    .where('collection_id', '=', c.id)
    .where('ts_config', '<>', config)
    .limit(1)
    .executeTakeFirst();
  await ctx.db.updateTable('knowledge_collections').set({ reindex_from: old?.ts_config ?? null }).where('id', '=', c.id).execute();
  const pglite = ctx.database.kind === 'pglite';
  for (let after = 0; ; ) {
    if (isStopped()) return false;
    const started = performance.now();
    const res = await sql<{ id: number }>`
      update knowledge_chunks k set ts_config = ${config}, tsv = to_tsvector(${config}::regconfig, i.name || E'\n' || k.content)
      from knowledge_items i
      where i.id = k.item_id and k.id in (
        select id from knowledge_chunks where collection_id = ${c.id} and id > ${after} order by id limit ${BATCH_ROWS}
      )
      returning k.id
    `.execute(ctx.db);
    if (res.rows.length === 0) break;
    after = Math.max(...res.rows.map((r) => Number(r.id)));
    if (pglite) await pause(Math.max(1, (performance.now() - started) / 4));
  }
  // Done unless the user changed the collection meanwhile (then it is queued again).
  await ctx.db
    .updateTable('knowledge_collections')
    .set({ index_version: KNOWLEDGE_INDEX_VERSION, reindex_from: null })
    .where('id', '=', c.id)
    .where(sql`date_trunc('milliseconds', updated_at)`, '=', c.updated_at)
    .execute();
  return true;
}
