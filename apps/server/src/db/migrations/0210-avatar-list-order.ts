import { sql, type Kysely } from 'kysely';

// The avatar list's order (newest first, then id) as an index (decision 211): a page of cards is
// read in order and stops at its limit instead of sorting every avatar of the account, and the
// count and the search by id are answered from the index alone.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index avatars_owner_list_idx on avatars(owner_id, created_at desc, id)`.execute(db);
  await sql`drop index if exists avatars_owner_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists avatars_owner_idx on avatars(owner_id, created_at)`.execute(db);
  await sql`drop index if exists avatars_owner_list_idx`.execute(db);
}
