// Conversation records: written by the runtime, read by the online-users lists and the billing
// report. Every reader passes the owner id (administrators' lists pass none).
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { ConversationsTable } from '../../db/tables/conversations';

type Q = Kysely<DB> | Transaction<DB>;
export type ConversationRow = Selectable<ConversationsTable>;

export function startConversation(db: Q, row: Insertable<ConversationsTable>) {
  return db.insertInto('conversations').values(row).execute();
}

export function touchConversation(db: Q, id: string, at: Date) {
  return db.updateTable('conversations').set({ last_seen_at: at }).where('id', '=', id).where('ended_at', 'is', null).execute();
}

/** Closes an open conversation; closing twice changes nothing. */
export function endConversation(db: Q, id: string, at: Date, reason: string) {
  return db
    .updateTable('conversations')
    .set({ ended_at: at, last_seen_at: at, status: 'OFFLINE', end_reason: reason })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .execute();
}

/** Open conversations, newest first; scoped to an owner and optionally one avatar. */
export function listOnline(db: Q, scope: { ownerId?: string; avatarId?: string } = {}) {
  let q = db.selectFrom('conversations').selectAll().where('ended_at', 'is', null);
  if (scope.ownerId) q = q.where('owner_id', '=', scope.ownerId);
  if (scope.avatarId) q = q.where('avatar_id', '=', scope.avatarId);
  return q.orderBy('started_at', 'desc').execute();
}

export async function countOnlineByAvatar(db: Q, ownerId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('conversations')
    .select(['avatar_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('owner_id', '=', ownerId)
    .where('ended_at', 'is', null)
    .groupBy('avatar_id')
    .execute();
  return new Map(rows.map((r) => [r.avatar_id, Number(r.n)]));
}

export function findConversation(db: Q, id: string, ownerId?: string) {
  let q = db.selectFrom('conversations').selectAll().where('id', '=', id);
  if (ownerId) q = q.where('owner_id', '=', ownerId);
  return q.executeTakeFirst();
}
