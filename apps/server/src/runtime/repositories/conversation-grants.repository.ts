// Single-use grants an end user gets after signing in with an avatar's OAuth partner
// (conversation_grants): stored as hashes, spent when a conversation opens; and the sign-in states
// that lead to them (oauth_states), spent by the callback.
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

/** Records a sign-in's state as not yet spent, and drops those expired long ago. */
export async function insertOAuthState(db: Kysely<DB>, nonceHash: string, expiresAt: Date, now: Date): Promise<void> {
  await db.deleteFrom('oauth_states').where('expires_at', '<', now).execute();
  await db.insertInto('oauth_states').values({ nonce_hash: nonceHash, expires_at: expiresAt }).execute();
}

/** Spends a sign-in's state: true once, while it is unexpired; the delete is the check, so two
 *  callbacks racing cannot both pass. */
export async function spendOAuthState(db: Kysely<DB>, nonceHash: string, now: Date): Promise<boolean> {
  const row = await db
    .deleteFrom('oauth_states')
    .where('nonce_hash', '=', nonceHash)
    .where('expires_at', '>', now)
    .returning('nonce_hash')
    .executeTakeFirst();
  return row !== undefined;
}
