// Conversation records: written by the runtime, read by the online-users lists (the billing report
// and the plan's minutes read the rollups their triggers keep, account/billing.repository.ts).
// Every reader passes the owner id (administrators' lists pass none).
import { type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { ConversationsTable } from '../../db/tables/conversations';

type Q = Kysely<DB> | Transaction<DB>;
export type ConversationRow = Selectable<ConversationsTable>;

export function startConversation(db: Q, row: Insertable<ConversationsTable>) {
  return db.insertInto('conversations').values(row).execute();
}

/** Marks many open conversations as seen now (the runtime's tick), a thousand per statement. */
export async function touchConversations(db: Q, ids: string[], at: Date): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000) {
    await db
      .updateTable('conversations')
      .set({ last_seen_at: at })
      .where('id', 'in', ids.slice(i, i + 1000))
      .where('ended_at', 'is', null)
      .execute();
  }
}

/** Closes an open conversation; closing twice changes nothing. */
export function endConversation(db: Q, id: string, at: Date, reason: string, detail?: string) {
  return db
    .updateTable('conversations')
    .set({ ended_at: at, last_seen_at: at, status: 'OFFLINE', end_reason: reason, ...(detail ? { end_detail: detail.slice(0, 500) } : {}) })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .execute();
}

/** Closes many open conversations at once (a process shutting down), 1,000 per statement. */
export async function endConversations(db: Q, ids: string[], at: Date, reason: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 1000) {
    await db
      .updateTable('conversations')
      .set({ ended_at: at, last_seen_at: at, status: 'OFFLINE', end_reason: reason })
      .where('id', 'in', ids.slice(i, i + 1000))
      .where('ended_at', 'is', null)
      .execute();
  }
}

/** Open conversations, newest first; scoped to an owner and optionally one avatar. */
/** Open conversations, newest first; with `page`, that page read with one row more (the lists
 *  of decision 221 tell from it whether another page follows). */
export function listOnline(db: Q, scope: { ownerId?: string; avatarId?: string } = {}, page?: { limit: number; offset: number }) {
  let q = db.selectFrom('conversations').selectAll().where('ended_at', 'is', null);
  if (scope.ownerId) q = q.where('owner_id', '=', scope.ownerId);
  if (scope.avatarId) q = q.where('avatar_id', '=', scope.avatarId);
  q = q.orderBy('started_at', 'desc').orderBy('id');
  if (page) q = q.limit(page.limit + 1).offset(page.offset);
  return q.execute();
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

/** Open conversations from one address, on every process (the per-IP concurrency limit). */
export async function countOpenFromIp(db: Q, ip: string): Promise<number> {
  const row = await db
    .selectFrom('conversations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ip_address', '=', ip)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Open conversations of one device (the online-user detail's device count). */
export async function countOpenOnDevice(db: Q, deviceId: string): Promise<number> {
  const row = await db
    .selectFrom('conversations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('device_id', '=', deviceId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Open conversations not seen since `before` (their process died). */
export function listStaleOpen(db: Q, before: Date) {
  return db
    .selectFrom('conversations')
    .select(['id', 'last_seen_at'])
    .where('ended_at', 'is', null)
    .where('last_seen_at', '<', before)
    .execute();
}

/** Ends a conversation whose process died, at its last heartbeat. */
export function endLost(db: Q, id: string, lastSeenAt: Date) {
  return db
    .updateTable('conversations')
    .set({ ended_at: lastSeenAt, status: 'OFFLINE', end_reason: 'server_lost' })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .execute();
}
