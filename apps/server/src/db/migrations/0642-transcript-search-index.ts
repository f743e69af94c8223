import { sql, type Kysely } from 'kysely';

// The insight's transcript search (`text ilike '%q%'`, issue 38 item 4) through a trigram index
// (pg_trgm), which serves ilike as it is: the same matches as before, without reading every
// message of the range (docs/decisions/416). PGlite loads pg_trgm (db/database.ts); PostgreSQL
// has it in its contrib package, trusted: the database's owner may create it. The extension goes
// to the schema `public` when it is new (a test schema would take it along when dropped) and is
// taken where it is when another migration or the operator created it. Without it (not
// installed, or no right to create it) there is no index and the search reads the range as before.
export async function up(db: Kysely<unknown>): Promise<void> {
  const home = await trigramSchema(db);
  if (!home) return;
  await sql`create index conversation_messages_text_trgm_idx on conversation_messages using gin (text ${sql.raw(`"${home}"`)}.gin_trgm_ops)`.execute(
    db,
  );
}

async function trigramSchema(db: Kysely<unknown>): Promise<string | null> {
  // Two migrating connections (test workers) must not both create the extension.
  await sql`select pg_advisory_xact_lock(hashtext('parla pg_trgm'))`.execute(db);
  const installed = async () =>
    (
      await sql<{ schema: string }>`
        select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
        db,
      )
    ).rows[0]?.schema ?? null;
  const found = await installed();
  if (found) return found.replace(/"/g, '');
  const res = await sql<{ available: boolean; allowed: boolean }>`
    select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available,
           coalesce(has_database_privilege(current_database(), 'CREATE') and has_schema_privilege('public', 'CREATE'), false) as allowed
      from (select 1) x where exists (select 1 from pg_namespace where nspname = 'public')`.execute(db);
  if (!res.rows[0]?.available || !res.rows[0].allowed) return null;
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  return installed();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists conversation_messages_text_trgm_idx`.execute(db);
}
