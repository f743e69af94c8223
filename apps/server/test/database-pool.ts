// The API test servers' databases, used again within a worker (issue 16, CI time). On PGlite,
// opening one from the migrated snapshot costs about 0.7 CPU-seconds; on PostgreSQL, a new schema
// and its migrations about 0.3 (client and server). Emptying one costs a few hundredths: a closed
// server's database is emptied (every table but the migrations' truncated, sequences restarted:
// what a fresh one holds) and handed to the next server. Only a server that closed gives its
// database back, so a server left open never shares its database with another. PostgreSQL
// schemas left at the end are dropped by test/global-setup.ts.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { snapshotBlob } from './pglite-snapshot';

/** Emptied databases kept for the next servers (a file may run several servers at once). */
const KEEP = 2;
const idle: Database[] = [];

/** A migrated, empty database: PostgreSQL (a schema of its own) when `url` is given, else PGlite
 *  from the run's snapshot. */
export async function takeDatabase(url: string | undefined, snapshot: string): Promise<Database> {
  const ready = idle.pop();
  if (ready) return ready;
  const database = url
    ? await openDatabase({ databaseUrl: url, schema: `t_${randomBytes(6).toString('hex')}` })
    : await openDatabase(snapshot ? { loadDataDir: snapshotBlob(snapshot) } : {});
  // The PGlite snapshot is migrated already (test/pglite-snapshot.ts).
  if (url || !snapshot) await migrate(database.db, database.schema);
  return database;
}

export async function giveDatabase(database: Database): Promise<void> {
  if (idle.length >= KEEP) return dropDatabase(database);
  try {
    const schema = database.schema ?? 'public';
    const tables = await sql<{ name: string }>`
      select quote_ident(tablename) as name from pg_tables
      where schemaname = ${schema} and tablename not like 'kysely_migration%'`.execute(database.db);
    await sql.raw(`truncate ${tables.rows.map((t) => t.name).join(', ')} restart identity cascade`).execute(database.db);
    idle.push(database);
  } catch {
    await dropDatabase(database);
  }
}

async function dropDatabase(database: Database): Promise<void> {
  if (database.schema)
    await sql
      .raw(`drop schema if exists "${database.schema}" cascade`)
      .execute(database.db)
      .catch(() => undefined);
  await database.close();
}
