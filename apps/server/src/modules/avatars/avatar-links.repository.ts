// An avatar's links to knowledge collections, functions and an encryption key: join tables with
// foreign keys and ON DELETE CASCADE (migration 0220, decision 403). Deleting either side removes
// the link in the database; no code cleans up after a delete.
//
// One reader per link kind: everything that needs an avatar's collections, functions or key (the
// portal's avatar, the conversation runtime, retrieval) reads them here.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

/** The avatar's knowledge collections, in the order the owner chose them. */
export async function linkedCollectionIds(db: Q, avatarId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('avatar_knowledge_collections')
    .select('collection_id')
    .where('avatar_id', '=', avatarId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.collection_id);
}

/** The avatar's functions, in the order the owner chose them (approval is checked by the reader). */
export async function linkedFunctionIds(db: Q, avatarId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('avatar_functions')
    .select('function_id')
    .where('avatar_id', '=', avatarId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.function_id);
}

/** The key the avatar's access tokens are signed with, or null (then avatars.enc_key_id says
 *  'Default' or 'None'). */
export async function linkedKeyId(db: Q, avatarId: string): Promise<string | null> {
  const row = await db.selectFrom('avatar_encryption_keys').select('key_id').where('avatar_id', '=', avatarId).executeTakeFirst();
  return row?.key_id ?? null;
}

/** Replaces the avatar's collections with those of `ids` that are the owner's (others are no links). */
export async function setCollections(trx: Q, ownerId: string, avatarId: string, ids: string[]): Promise<void> {
  await trx.deleteFrom('avatar_knowledge_collections').where('avatar_id', '=', avatarId).execute();
  if (!ids.length) return;
  await sql`
    insert into avatar_knowledge_collections (avatar_id, collection_id, position)
    select ${avatarId}, c.id, min(x.n)
    from unnest(array[${sql.join(ids)}]::text[]) with ordinality as x(id, n)
    join knowledge_collections c on c.id = x.id and c.owner_id = ${ownerId}
    group by c.id`.execute(trx);
}

/** Replaces the avatar's functions with those of `ids` that are the owner's. */
export async function setFunctions(trx: Q, ownerId: string, avatarId: string, ids: string[]): Promise<void> {
  await trx.deleteFrom('avatar_functions').where('avatar_id', '=', avatarId).execute();
  if (!ids.length) return;
  await sql`
    insert into avatar_functions (avatar_id, function_id, position)
    select ${avatarId}, f.id, min(x.n)
    from unnest(array[${sql.join(ids)}]::text[]) with ordinality as x(id, n)
    join functions f on f.id = x.id and f.owner_id = ${ownerId}
    group by f.id`.execute(trx);
}

/** Links the owner's key `keyId` to the avatar, or unlinks any key (null). */
export async function setKey(trx: Q, ownerId: string, avatarId: string, keyId: string | null): Promise<void> {
  await trx.deleteFrom('avatar_encryption_keys').where('avatar_id', '=', avatarId).execute();
  if (keyId === null) return;
  await trx
    .insertInto('avatar_encryption_keys')
    .columns(['avatar_id', 'key_id'])
    .expression((eb) =>
      eb
        .selectFrom('encryption_keys')
        .select([eb.val(avatarId).as('avatar_id'), 'id'])
        .where('id', '=', keyId)
        .where('owner_id', '=', ownerId),
    )
    .execute();
}
