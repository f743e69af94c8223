// The stored_files rows and their file_chunks (lib/file-store.ts): the file store decides when,
// these are the queries.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

export interface StoredFileRow {
  id: string;
  owner_id: string;
  kind: string;
  rel_path: string | null;
  original_name: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string;
  chunk_count: number | null;
}

export function insert(db: Q, row: StoredFileRow) {
  return db.insertInto('stored_files').values(row).execute();
}

export function insertChunk(db: Q, fileId: string, idx: number, data: Buffer) {
  return db.insertInto('file_chunks').values({ file_id: fileId, idx, data }).execute();
}

/** Chunks `from`..`to` (inclusive) of a file, in order. */
export function chunks(db: Q, fileId: string, from: number, to: number) {
  return db
    .selectFrom('file_chunks')
    .select(['idx', 'data'])
    .where('file_id', '=', fileId)
    .where('idx', '>=', from)
    .where('idx', '<=', to)
    .orderBy('idx')
    .execute();
}

/** Deletes the owner's row (its chunks go with it); whether there was one. */
export async function remove(db: Q, ownerId: string, fileId: string): Promise<boolean> {
  const row = await db
    .deleteFrom('stored_files')
    .where('owner_id', '=', ownerId)
    .where('id', '=', fileId)
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

export function find(db: Q, ownerId: string, fileId: string) {
  return db.selectFrom('stored_files').selectAll().where('owner_id', '=', ownerId).where('id', '=', fileId).executeTakeFirst();
}

export function findById(db: Q, fileId: string) {
  return db.selectFrom('stored_files').selectAll().where('id', '=', fileId).executeTakeFirst();
}

/** Rows whose bytes are not all in file_chunks (an older release's file not moved yet, or a
 *  damaged row): how many, of how many, and a few of them. */
export async function withoutBytes(
  db: Q,
): Promise<{ checked: number; missing: number; examples: { id: string; rel_path: string | null }[] }> {
  const incomplete = db
    .selectFrom('stored_files as f')
    .select(['f.id', 'f.rel_path'])
    .where((eb) =>
      eb.or([
        eb('f.chunk_count', 'is', null),
        eb(
          'f.chunk_count',
          '<>',
          eb
            .selectFrom('file_chunks as c')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('c.file_id', '=', 'f.id'),
        ),
      ]),
    );
  const [counts, examples] = await Promise.all([
    db
      .selectFrom('stored_files')
      .select((eb) => [eb.fn.countAll<number>().as('checked')])
      .executeTakeFirstOrThrow(),
    incomplete.orderBy('f.id').limit(3).execute(),
  ]);
  const missing = await db
    .selectFrom(incomplete.as('i'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { checked: Number(counts.checked), missing: Number(missing.n), examples };
}

/** Rows an older release left on disk, `limit` at a time in id order (the move at start). */
export function pageOnDisk(db: Q, afterId: string, limit: number) {
  return db
    .selectFrom('stored_files')
    .select(['id', 'rel_path', 'size_bytes', 'sha256'])
    .where('chunk_count', 'is', null)
    .where('rel_path', 'is not', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Locks a row still waiting for its bytes (null when another process moved it meanwhile). */
export function lockOnDisk(db: Q, fileId: string) {
  return db
    .selectFrom('stored_files')
    .select(['id', 'rel_path'])
    .where('id', '=', fileId)
    .where('chunk_count', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export function markMoved(db: Q, fileId: string, chunkCount: number) {
  return db.updateTable('stored_files').set({ chunk_count: chunkCount, rel_path: null }).where('id', '=', fileId).execute();
}

/** How many files have their bytes in the database. */
export async function countWithBytes(db: Q): Promise<number> {
  const r = await db
    .selectFrom('stored_files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('chunk_count', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
