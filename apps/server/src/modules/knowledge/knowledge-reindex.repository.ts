// The queries of background re-indexing (knowledge.reindex.ts, decision 407).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/** The first chunks' text of a collection, to detect its language. */
export async function sampleText(db: Kysely<DB>, collectionId: string): Promise<string> {
  const rows = await db
    .selectFrom('knowledge_chunks')
    .select('content')
    .where('collection_id', '=', collectionId)
    .orderBy('id')
    .limit(4)
    .execute();
  return rows.map((r) => r.content).join('\n');
}

export function findCollectionLanguage(db: Kysely<DB>, collectionId: string) {
  return db.selectFrom('knowledge_collections').select(['language', 'detected_language']).where('id', '=', collectionId).executeTakeFirst();
}

export async function hasChunks(db: Kysely<DB>, collectionId: string): Promise<boolean> {
  return !!(await db.selectFrom('knowledge_chunks').select('id').where('collection_id', '=', collectionId).limit(1).executeTakeFirst());
}

/** Sets the detected language once (and asks for a re-index when chunks exist already). */
export async function setDetectedLanguage(db: Kysely<DB>, collectionId: string, code: string, reindex: boolean): Promise<void> {
  await db
    .updateTable('knowledge_collections')
    .set(reindex ? { detected_language: code, index_version: 0 } : { detected_language: code })
    .where('id', '=', collectionId)
    .where('detected_language', 'is', null)
    .execute();
}

/** The collection waiting longest for a re-index below the given version. */
export function nextCollectionToReindex(db: Kysely<DB>, version: number) {
  return db
    .selectFrom('knowledge_collections')
    .select(['id', 'language', 'detected_language', 'updated_at'])
    .where('index_version', '<', version)
    .orderBy('updated_at')
    .limit(1)
    .executeTakeFirst();
}

export async function storeDetectedLanguage(db: Kysely<DB>, collectionId: string, code: string): Promise<void> {
  await db.updateTable('knowledge_collections').set({ detected_language: code }).where('id', '=', collectionId).execute();
}

/** A configuration some chunks of the collection still use, other than `config`. */
export async function otherConfig(db: Kysely<DB>, collectionId: string, config: string): Promise<string | null> {
  const old = await db
    .selectFrom('knowledge_chunks')
    .select('ts_config')
    .where('collection_id', '=', collectionId)
    .where('ts_config', '<>', config)
    .limit(1)
    .executeTakeFirst();
  return old?.ts_config ?? null;
}

export async function setReindexFrom(db: Kysely<DB>, collectionId: string, from: string | null): Promise<void> {
  await db.updateTable('knowledge_collections').set({ reindex_from: from }).where('id', '=', collectionId).execute();
}

/** Re-indexes the next batch of chunks after id `after`; answers their ids. */
export async function reindexBatch(db: Kysely<DB>, collectionId: string, config: string, after: number, rows: number): Promise<number[]> {
  const res = await sql<{ id: number }>`
    update knowledge_chunks k set ts_config = ${config}, tsv = to_tsvector(${config}::regconfig, i.name || E'\n' || k.content)
    from knowledge_items i
    where i.id = k.item_id and k.id in (
      select id from knowledge_chunks where collection_id = ${collectionId} and id > ${after} order by id limit ${rows}
    )
    returning k.id
  `.execute(db);
  return res.rows.map((r) => Number(r.id));
}

/** Done unless the user changed the collection meanwhile (then it is queued again). */
export async function markReindexed(db: Kysely<DB>, collectionId: string, version: number, updatedAt: Date): Promise<void> {
  await db
    .updateTable('knowledge_collections')
    .set({ index_version: version, reindex_from: null })
    .where('id', '=', collectionId)
    .where(sql`date_trunc('milliseconds', updated_at)`, '=', updatedAt)
    .execute();
}
