// Server processes over one database and the messages addressed to them (decision 630). Server
// data: no owner scope (the messages name conversations, owners and nodes the sender checked).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/** The process is alive: inserted on start, touched on every heartbeat. */
export async function touchProcess(db: Kysely<DB>, id: string, host: string, at: Date): Promise<void> {
  await db
    .insertInto('runtime_processes')
    .values({ id, host, started_at: at, seen_at: at })
    .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: at }))
    .execute();
}

/** Processes seen since `since`, this one included. */
export async function liveProcessIds(db: Kysely<DB>, since: Date): Promise<string[]> {
  const rows = await db.selectFrom('runtime_processes').select('id').where('seen_at', '>=', since).execute();
  return rows.map((r) => r.id);
}

export async function isProcessLive(db: Kysely<DB>, id: string, since: Date): Promise<boolean> {
  const row = await db.selectFrom('runtime_processes').select('id').where('id', '=', id).where('seen_at', '>=', since).executeTakeFirst();
  return !!row;
}

/** Processes not seen since `before` (killed, or cut off from the database), never `self`. */
export async function deadProcessIds(db: Kysely<DB>, before: Date, self: string): Promise<string[]> {
  const rows = await db.selectFrom('runtime_processes').select('id').where('seen_at', '<', before).where('id', '<>', self).execute();
  return rows.map((r) => r.id);
}

/**
 * A dead process's leftovers, in one transaction: its open conversations end at their last
 * heartbeat (the usage counters were added up to that tick: billed once, not lost, not doubled),
 * its nodes go OFFLINE, its undelivered messages and its row go. Several live processes may do
 * this at once; each statement changes only what is still open.
 */
export async function forgetDeadProcess(db: Kysely<DB>, id: string): Promise<{ conversations: number }> {
  return db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable('conversations')
      .set({ ended_at: sql`last_seen_at`, status: 'OFFLINE', end_reason: 'server_lost' })
      .where('process_id', '=', id)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    await trx.updateTable('pipeline_nodes').set({ status: 'OFFLINE', sessions: 0, session_id: '' }).where('process_id', '=', id).execute();
    await trx.deleteFrom('runtime_deliveries').where('process_id', '=', id).execute();
    await trx.deleteFrom('runtime_processes').where('id', '=', id).execute();
    return { conversations: Number(ended.numUpdatedRows) };
  });
}

/** A process that stops cleanly leaves no row behind. */
export async function removeProcess(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('runtime_deliveries').where('process_id', '=', id).execute();
  await db.deleteFrom('runtime_processes').where('id', '=', id).execute();
}

export async function postDeliveries(
  db: Kysely<DB>,
  rows: { processId: string; kind: string; payload: string }[],
  at: Date,
): Promise<void> {
  if (!rows.length) return;
  await db
    .insertInto('runtime_deliveries')
    .values(rows.map((r) => ({ process_id: r.processId, kind: r.kind, payload: r.payload, created_at: at })))
    .execute();
}

/** Takes (deletes and returns) the messages waiting for a process, oldest first. */
export async function takeDeliveries(db: Kysely<DB>, processId: string): Promise<{ kind: string; payload: string }[]> {
  const rows = await db.deleteFrom('runtime_deliveries').where('process_id', '=', processId).returning(['id', 'kind', 'payload']).execute();
  return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((r) => ({ kind: r.kind, payload: r.payload }));
}

/** Wakes the process listening on a channel (PostgreSQL NOTIFY; PGlite has one process). */
export async function notifyChannel(db: Kysely<DB>, channel: string): Promise<void> {
  await sql`select pg_notify(${channel}, '')`.execute(db);
}

/** The database's clock: processes on different hosts agree on it. */
export async function databaseNow(db: Kysely<DB>): Promise<Date> {
  const r = await sql<{ now: Date }>`select now() as now`.execute(db);
  return new Date(r.rows[0]!.now);
}
