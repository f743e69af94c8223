// Single-use grants an end user gets after signing in with an avatar's OAuth partner
// (conversation_grants): stored as hashes, spent when a conversation opens.
import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../db/schema';

export function insertGrant(db: Kysely<DB>, row: Insertable<DB['conversation_grants']>) {
  return db.insertInto('conversation_grants').values(row).execute();
}

/** Marks a grant used; answers it when it was unused, unexpired and for this avatar (with the
 *  verified subject, if any), else null. */
export async function spendGrant(
  db: Kysely<DB>,
  idHash: string,
  avatarId: string,
  now: Date,
): Promise<{ verifiedSubject: string | null } | null> {
  const row = await db
    .updateTable('conversation_grants')
    .set({ used_at: now })
    .where('id_hash', '=', idHash)
    .where('avatar_id', '=', avatarId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id_hash', 'verified_subject'])
    .executeTakeFirst();
  return row ? { verifiedSubject: row.verified_subject ?? null } : null;
}

export async function deleteGrantsExpiredBefore(db: Kysely<DB>, before: Date): Promise<void> {
  await db.deleteFrom('conversation_grants').where('expires_at', '<', before).execute();
}
