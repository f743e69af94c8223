// Queries of OAuth configs, always scoped by owner: another account's id is simply not found.
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/schema';
import type { OauthAppsTable } from '../../db/tables/oauth';

type Q = Kysely<DB> | Transaction<DB>;

export function listApps(db: Q, ownerId: string) {
  return db
    .selectFrom('oauth_apps')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function findApp(db: Q, ownerId: string, id: number) {
  return db.selectFrom('oauth_apps').selectAll().where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

export async function countApps(db: Q, ownerId: string): Promise<number> {
  const r = await db
    .selectFrom('oauth_apps')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function insertApp(db: Q, row: Insertable<OauthAppsTable>) {
  return db.insertInto('oauth_apps').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateApp(db: Q, ownerId: string, id: number, changes: Updateable<OauthAppsTable>) {
  return db.updateTable('oauth_apps').set(changes).where('owner_id', '=', ownerId).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteApp(db: Q, ownerId: string, id: number): Promise<boolean> {
  const res = await db.deleteFrom('oauth_apps').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}
