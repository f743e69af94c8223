// The API test servers' PGlite databases, used again within a worker (issue 16, CI time): opening
// one from the migrated snapshot costs about 0.7 CPU-seconds, emptying one a few hundredths. A
// closed server's database is emptied (every table but the migrations' truncated, sequences
// restarted: what the snapshot holds) and handed to the next server. Only a server that closed
// gives its database back, so a server left open never shares its database with another.
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/db/database';
import { snapshotBlob } from './pglite-snapshot';

/** Emptied databases kept for the next servers (a file may run several servers at once). */
const KEEP = 2;
const idle: Database[] = [];

export function takePglite(snapshot: string): Promise<Database> {
  const ready = idle.pop();
  return ready ? Promise.resolve(ready) : openDatabase(snapshot ? { loadDataDir: snapshotBlob(snapshot) } : {});
}

export async function givePglite(database: Database): Promise<void> {
  if (idle.length >= KEEP) return database.close();
  try {
    const tables = await sql<{ name: string }>`
      select quote_ident(tablename) as name from pg_tables
      where schemaname = 'public' and tablename not like 'kysely_migration%'`.execute(database.db);
    await sql.raw(`truncate ${tables.rows.map((t) => t.name).join(', ')} restart identity cascade`).execute(database.db);
    idle.push(database);
  } catch {
    await database.close();
  }
}
