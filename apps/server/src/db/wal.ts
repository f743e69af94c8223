// The write-ahead log of the embedded database. PGlite runs PostgreSQL as a standalone backend
// without a checkpointer: it never checkpoints by itself, whatever max_wal_size says, and without a
// checkpoint no WAL segment is recycled. Knowledge ingestion checkpointed as it wrote (decision
// 406), but nothing else did: a server that only talks (transcripts, conversations, rollups,
// usage counters) kept every byte of WAL it ever wrote, on disk or, in memory, in the heap
// (40,000 transcript messages wrote 85 MB). The keeper checks every WAL_CHECK_MS and checkpoints
// once CHECKPOINT_WAL_BYTES were written since the last checkpoint, as background work (requests
// first, decision 222). On PostgreSQL its checkpointer does this; the keeper does not run there.
import { sql, type Kysely } from 'kysely';
import type { Database } from './database';
import { inBackground } from './pglite-gate';
import type { DB } from './schema';

/** WAL written since the last checkpoint that makes the next one due. */
export const CHECKPOINT_WAL_BYTES = 16 * 1024 * 1024;
/** How often the keeper looks (a statement of a few microseconds). */
export const WAL_CHECK_MS = 5000;

/** Bytes of WAL written since the last checkpoint. */
export async function walSinceCheckpoint(db: Kysely<DB>): Promise<number> {
  const res = await sql<{ bytes: number }>`
    select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), (select redo_lsn from pg_control_checkpoint()))::float8 as bytes
  `.execute(db);
  return Number(res.rows[0]?.bytes ?? 0);
}

export async function checkpoint(db: Kysely<DB>): Promise<void> {
  await sql`checkpoint`.execute(db);
}

/** On PGlite: a checkpoint when the WAL written since the last one passed CHECKPOINT_WAL_BYTES. */
export async function checkpointIfDue(database: Pick<Database, 'db' | 'kind'>): Promise<void> {
  if (database.kind !== 'pglite') return;
  if ((await walSinceCheckpoint(database.db)) > CHECKPOINT_WAL_BYTES) await checkpoint(database.db);
}

/**
 * Starts the keeper on PGlite (nothing on PostgreSQL); the function returned stops it and waits for
 * a check under way. A failed check is logged and the next one tries again. The first check runs at
 * once and is awaited: the server starts it before it listens, so the WAL of the migrations or of
 * the last run is checkpointed before any request could wait behind it.
 */
export async function keepWal(
  database: Pick<Database, 'db' | 'kind'>,
  onError: (err: unknown) => void,
  everyMs = WAL_CHECK_MS,
): Promise<() => Promise<void>> {
  if (database.kind !== 'pglite') return async () => undefined;
  await checkpointIfDue(database).catch(onError);
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= inBackground(() => checkpointIfDue(database))
      .catch(onError)
      .finally(() => (running = null));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
