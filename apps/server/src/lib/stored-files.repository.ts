// The stored_files rows of the file store (lib/file-store.ts): the file store decides when, these
// are the queries.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

export interface StoredFileRow {
  id: string;
  owner_id: string;
  kind: string;
  rel_path: string;
  original_name: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string;
}

export function insert(db: Q, row: StoredFileRow) {
  return db.insertInto('stored_files').values(row).execute();
}

/** Deletes the owner's row; its path, or undefined. */
export async function remove(db: Q, ownerId: string, fileId: string): Promise<string | undefined> {
  const row = await db
    .deleteFrom('stored_files')
    .where('owner_id', '=', ownerId)
    .where('id', '=', fileId)
    .returning('rel_path')
    .executeTakeFirst();
  return row?.rel_path;
}

export function find(db: Q, ownerId: string, fileId: string) {
  return db.selectFrom('stored_files').selectAll().where('owner_id', '=', ownerId).where('id', '=', fileId).executeTakeFirst();
}

export function findById(db: Q, fileId: string) {
  return db.selectFrom('stored_files').selectAll().where('id', '=', fileId).executeTakeFirst();
}

/** The paths the owner's rows name. */
export async function pathsOf(db: Q, ownerId: string): Promise<Set<string>> {
  return new Set((await db.selectFrom('stored_files').select('rel_path').where('owner_id', '=', ownerId).execute()).map((r) => r.rel_path));
}

/** Every row's id and path, `limit` at a time in id order (the start-up check of the files). */
export function pageOfPaths(db: Q, afterId: string, limit: number) {
  return db.selectFrom('stored_files').select(['id', 'rel_path']).where('id', '>', afterId).orderBy('id').limit(limit).execute();
}
