import { sql, type Kysely } from 'kysely';

// How many times an item's processing crashed: its extraction process was killed (time or
// memory limit, abnormal exit) or the server died while it held the item (its lease lapsed and
// another claim took it over). Unlike `attempts`, a user's retry does not reset it, so one file
// cannot make the server read it again and again (docs/decisions/405).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_items add column crashes integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_items drop column crashes`.execute(db);
}
