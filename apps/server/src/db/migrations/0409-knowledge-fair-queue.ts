import { sql, type Kysely } from 'kysely';

// The ingestion queue, fair between owners and aware of dead processes (issue 33 item 3, issue 34
// item 5; docs/decisions/411): an item in processing names the server process that holds it (a
// row of runtime_processes, decision 630), so another process takes it over as soon as that one
// stops heartbeating instead of after its lease; `claimed_at` is when an item was last claimed,
// so the next claim goes to the owner served least recently.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_items add column process_id text`.execute(db);
  await sql`alter table knowledge_items add column claimed_at timestamptz`.execute(db);
  await sql`create index knowledge_items_owner_claimed_idx on knowledge_items(owner_id, claimed_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index knowledge_items_owner_claimed_idx`.execute(db);
  await sql`alter table knowledge_items drop column claimed_at`.execute(db);
  await sql`alter table knowledge_items drop column process_id`.execute(db);
}
