// Queries of collections, items and chunks. Every customer query takes the owner id first; the
// worker's queries (claim, finish) are named as such and work on ids it claimed.
import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import { containsPattern } from '@parla/shared/schemas/paging';
import type { DB } from '../../db/schema';
import type { KnowledgeItemsTable } from '../../db/tables/knowledge';

type Q = Kysely<DB> | Transaction<DB>;

// --- Collections ------------------------------------------------------------------------------

export function listCollections(db: Q, ownerId: string) {
  return db
    .selectFrom('knowledge_collections as c')
    .select([
      'c.id',
      'c.name',
      'c.language',
      'c.detected_language',
      'c.index_version',
      'c.crawl_schedule',
      'c.crawl_url',
      'c.crawl_include',
      'c.crawl_exclude',
      'c.crawl_next_at',
      'c.vectors_model',
      'c.created_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('knowledge_items as i')
        .whereRef('i.collection_id', '=', 'c.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('item_count'),
    )
    .where('c.owner_id', '=', ownerId)
    .orderBy('c.created_at', 'asc')
    .execute();
}

export function findCollection(db: Q, ownerId: string, id: string) {
  return db.selectFrom('knowledge_collections').selectAll().where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

export function findCollections(db: Q, ownerId: string, ids: string[]) {
  return db.selectFrom('knowledge_collections').selectAll().where('owner_id', '=', ownerId).where('id', 'in', ids).execute();
}

export function insertCollection(
  db: Q,
  row: {
    id: string;
    owner_id: string;
    name: string;
    language: string | null;
    index_version: number;
    vectors_model?: string | null;
    created_at: Date;
    updated_at: Date;
  },
) {
  return db.insertInto('knowledge_collections').values(row).execute();
}

export function updateCollection(
  db: Q,
  ownerId: string,
  id: string,
  patch: { name: string; language?: string | null; index_version?: number; updated_at: Date },
) {
  return db.updateTable('knowledge_collections').set(patch).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

export async function countItems(db: Q, ownerId: string, collectionId: string): Promise<number> {
  const row = await db
    .selectFrom('knowledge_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('collection_id', '=', collectionId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function setCrawlSettings(
  db: Q,
  ownerId: string,
  id: string,
  patch: {
    crawl_schedule: string;
    crawl_url: string | null;
    crawl_include: string;
    crawl_exclude: string;
    crawl_next_at: Date | null;
    updated_at: Date;
  },
) {
  return db.updateTable('knowledge_collections').set(patch).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

/** Worker: the collection whose re-crawl is due longest, its next time moved on (one node wins). */
export async function claimDueCrawl(db: Kysely<DB>, now: Date, nextAt: (schedule: string) => Date) {
  const due = await db
    .selectFrom('knowledge_collections')
    .selectAll()
    .where('crawl_schedule', '<>', 'off')
    .where('crawl_next_at', '<=', now)
    .orderBy('crawl_next_at')
    .limit(1)
    .executeTakeFirst();
  if (!due) return undefined;
  const res = await db
    .updateTable('knowledge_collections')
    .set({ crawl_next_at: nextAt(due.crawl_schedule) })
    .where('id', '=', due.id)
    .where('crawl_next_at', '=', due.crawl_next_at)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1 ? due : undefined;
}

export function deleteCollection(db: Q, ownerId: string, id: string) {
  return db.deleteFrom('knowledge_collections').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

// --- Items ------------------------------------------------------------------------------------

const itemColumns = [
  'id',
  'owner_id',
  'collection_id',
  'name',
  'kind',
  'url',
  'file_id',
  'file_name',
  'file_type',
  'status',
  'fail_reason',
  'chunk_count',
  'attempts',
  'created_at',
  'updated_at',
] as const;

/** A page of a collection's items, newest first; `search` keeps the names containing it. */
export function listItems(db: Q, ownerId: string, collectionId: string, page: { limit: number; offset: number }, search?: string) {
  let q = db
    .selectFrom('knowledge_items')
    .select(itemColumns)
    .select(sql<string | null>`left(content, 300)`.as('content'))
    .where('owner_id', '=', ownerId)
    .where('collection_id', '=', collectionId);
  if (search) q = q.where('name', 'ilike', containsPattern(search));
  return q.orderBy('created_at', 'desc').orderBy('id').limit(page.limit).offset(page.offset).execute();
}

export function findItem(db: Q, ownerId: string, id: string) {
  return db
    .selectFrom('knowledge_items')
    .select(itemColumns)
    .select(sql<string | null>`left(content, 300)`.as('content'))
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function insertItem(db: Q, row: Insertable<KnowledgeItemsTable>) {
  return db.insertInto('knowledge_items').values(row).execute();
}

export function deleteItem(db: Q, ownerId: string, id: string) {
  return db.deleteFrom('knowledge_items').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

export function fileIdsOfCollection(db: Q, ownerId: string, collectionId: string) {
  return db
    .selectFrom('knowledge_items')
    .select('file_id')
    .where('owner_id', '=', ownerId)
    .where('collection_id', '=', collectionId)
    .where('file_id', 'is not', null)
    .execute();
}

/** Back to the queue after a failure; `crashes` stays (docs/decisions/405). */
export function requeueItem(db: Q, ownerId: string, id: string, now: Date) {
  return db
    .updateTable('knowledge_items')
    .set({ status: 'queued', fail_reason: null, attempts: 0, locked_until: null, updated_at: now })
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
}

/** A ready or failed page back to the queue to be fetched again (re-sync). */
export function requeueForResync(db: Q, ownerId: string, id: string, now: Date) {
  return db
    .updateTable('knowledge_items')
    .set({ status: 'queued', fail_reason: null, attempts: 0, locked_until: null, content_hash: null, updated_at: now })
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .where('kind', '=', 'url')
    .where('status', 'in', ['ready', 'failed'])
    .executeTakeFirst();
}

// --- Worker -----------------------------------------------------------------------------------

// The claim is in knowledge-queue.repository.ts (fair between owners, decision 411).

export function extendLease(db: Q, id: string, until: Date) {
  return db.updateTable('knowledge_items').set({ locked_until: until }).where('id', '=', id).where('status', '=', 'processing').execute();
}

export function finishItem(db: Q, id: string, patch: Updateable<KnowledgeItemsTable>) {
  return db.updateTable('knowledge_items').set(patch).where('id', '=', id).where('status', '=', 'processing').executeTakeFirst();
}

/** Fails a claimed item whose extraction crashed, counting the crash. */
export function failItemCrashed(db: Q, id: string, reason: string, now: Date) {
  return db
    .updateTable('knowledge_items')
    .set((eb) => ({
      status: 'failed',
      fail_reason: reason,
      crashes: eb('crashes', '+', 1),
      locked_until: null,
      updated_at: now,
      processed_at: now,
    }))
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .executeTakeFirst();
}

/** Deletes up to `limit` chunks of an item (with their terms and vectors); answers how many. */
export async function deleteSomeChunksOfItem(db: Q, itemId: string, limit: number): Promise<number> {
  const res = await sql`
    delete from knowledge_chunks where id in (select id from knowledge_chunks where item_id = ${itemId} order by ord desc limit ${limit})
  `.execute(db);
  return Number(res.numAffectedRows ?? 0);
}

/** The last chunk an interrupted ingestion wrote for this item, if any. */
export function lastChunkOfItem(db: Q, itemId: string) {
  return db
    .selectFrom('knowledge_chunks')
    .select(['ord', 'content'])
    .where('item_id', '=', itemId)
    .orderBy('ord', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Chunks with their full-text vectors; the item's name (a page's title) counts as their text. */
export async function insertChunks(
  db: Q,
  rows: { owner_id: string; collection_id: string; item_id: string; ord: number; content: string }[],
  config: string,
  title = '',
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    const batch = rows.slice(i, i + 200);
    const res = await db
      .insertInto('knowledge_chunks')
      .values(
        batch.map((r) => ({
          ...r,
          ts_config: config,
          tsv: sql`to_tsvector(${config}::regconfig, ${title ? `${title}\n${r.content}` : r.content})`,
        })),
      )
      .returning('id')
      .execute();
    ids.push(...res.map((r) => Number(r.id)));
  }
  return ids;
}

export function collectionLanguage(db: Q, collectionId: string) {
  return db.selectFrom('knowledge_collections').select(['language', 'detected_language']).where('id', '=', collectionId).executeTakeFirst();
}

/** Another item of the collection with this content (worker). */
export function findByContentHash(db: Q, collectionId: string, hash: string, exceptId: string) {
  return db
    .selectFrom('knowledge_items')
    .select(['id', 'name'])
    .where('collection_id', '=', collectionId)
    .where('content_hash', '=', hash)
    .where('id', '<>', exceptId)
    .where('status', '<>', 'failed')
    .executeTakeFirst();
}

export function setContentHash(db: Q, id: string, hash: string) {
  return db.updateTable('knowledge_items').set({ content_hash: hash }).where('id', '=', id).execute();
}

/** An item of the collection with this normalised URL. */
export function findByUrlKey(db: Q, ownerId: string, collectionId: string, urlKey: string) {
  return db
    .selectFrom('knowledge_items')
    .select(['id', 'name'])
    .where('owner_id', '=', ownerId)
    .where('collection_id', '=', collectionId)
    .where('url_key', '=', urlKey)
    .executeTakeFirst();
}

/** Knowledge uploads older than `before` that no item refers to (uploaded, never used). */
export function unusedUploads(db: Q, before: Date) {
  return db
    .selectFrom('stored_files as f')
    .select(['f.id', 'f.owner_id'])
    .where('f.kind', '=', 'knowledge')
    .where('f.created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('knowledge_items as i').select('i.id').whereRef('i.file_id', '=', 'f.id'))),
    )
    .limit(100)
    .execute();
}

/** Items waiting to be ingested, every owner's (the operators' metrics: one queue in the database). */
export async function countQueuedItems(db: Q): Promise<number> {
  const row = await db
    .selectFrom('knowledge_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether the item is still there (a worker's item may be deleted while it runs). */
export async function itemExists(db: Q, itemId: string): Promise<boolean> {
  return !!(await db.selectFrom('knowledge_items').select('id').where('id', '=', itemId).executeTakeFirst());
}

/** Whether an item already uses the stored file. */
export async function fileInUse(db: Q, fileId: string): Promise<boolean> {
  return !!(await db.selectFrom('knowledge_items').select('id').where('file_id', '=', fileId).executeTakeFirst());
}

/** The full-text configurations the database has. */
export async function textSearchConfigNames(db: Kysely<DB>): Promise<Set<string>> {
  const r = await sql<{ cfgname: string }>`select cfgname from pg_ts_config`.execute(db);
  return new Set(r.rows.map((x) => x.cfgname));
}

/** VACUUM of the named tables (PGlite has no autovacuum: decision 220). */
export async function vacuumTables(db: Kysely<DB>, tables: readonly string[]): Promise<void> {
  await sql.raw(`vacuum ${tables.join(', ')}`).execute(db);
}

/** An item of the collection that holds the same text (its content hash), not a failed one. */
export function findItemByContentHash(db: Q, ownerId: string, collectionId: string, hash: string) {
  return db
    .selectFrom('knowledge_items')
    .select('name')
    .where('owner_id', '=', ownerId)
    .where('collection_id', '=', collectionId)
    .where('content_hash', '=', hash)
    .where('status', '<>', 'failed')
    .executeTakeFirst();
}

/** An item's chunks in order (at most 2,000). */
export function listItemChunks(db: Q, ownerId: string, itemId: string) {
  return db
    .selectFrom('knowledge_chunks')
    .select(['ord', 'content'])
    .where('owner_id', '=', ownerId)
    .where('item_id', '=', itemId)
    .orderBy('ord')
    .limit(2000)
    .execute();
}

/** Hands a claimed item back to the queue (the process shuts down): the claim's attempt is not
 *  counted, and the next worker resumes it at once. */
export function releaseItem(db: Q, id: string, now: Date) {
  return db
    .updateTable('knowledge_items')
    .set((eb) => ({ status: 'queued', locked_until: null, attempts: eb('attempts', '-', 1), updated_at: now }))
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .executeTakeFirst();
}
