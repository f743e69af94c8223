// Queries of encryption keys and used access-token ids. Every query takes the owner id.
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { EncryptionKeysTable } from '../../db/tables/encryption-keys';

type Q = Kysely<DB> | Transaction<DB>;

export function list(db: Q, ownerId: string) {
  return db
    .selectFrom('encryption_keys')
    .select(['id', 'name', 'public_key_pem', 'default_key', 'created_at'])
    .where('owner_id', '=', ownerId)
    .orderBy('default_key', 'desc')
    .orderBy('created_at', 'asc')
    .execute();
}

export function find(db: Q, ownerId: string, id: string) {
  return db.selectFrom('encryption_keys').selectAll().where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

export function findDefault(db: Q, ownerId: string) {
  return db.selectFrom('encryption_keys').selectAll().where('owner_id', '=', ownerId).where('default_key', '=', true).executeTakeFirst();
}

export async function hasDefault(db: Q, ownerId: string): Promise<boolean> {
  const row = await db
    .selectFrom('encryption_keys')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('default_key', '=', true)
    .executeTakeFirst();
  return Boolean(row);
}

export function insert(db: Q, row: Insertable<EncryptionKeysTable>) {
  return db.insertInto('encryption_keys').values(row).execute();
}

/** Inserts the default key unless the account has one already (two first lists at once
 *  create one key: the partial unique index decides). */
export function insertDefault(db: Q, row: Insertable<EncryptionKeysTable>) {
  return db
    .insertInto('encryption_keys')
    .values({ ...row, default_key: true })
    .onConflict((oc) => oc.column('owner_id').where('default_key', '=', true).doNothing())
    .execute();
}

export function remove(db: Q, ownerId: string, id: string) {
  return db
    .deleteFrom('encryption_keys')
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .where('default_key', '=', false)
    .executeTakeFirst();
}

/** Records a token id; false when it was used before (the insert is the check). */
export async function useTokenId(db: Q, keyId: string, jti: string, expiresAt: Date): Promise<boolean> {
  const res = await db
    .insertInto('access_token_uses')
    .values({ key_id: keyId, jti, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['key_id', 'jti']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function forgetExpiredTokenIds(db: Q, now: Date) {
  return db.deleteFrom('access_token_uses').where('expires_at', '<', now).execute();
}
