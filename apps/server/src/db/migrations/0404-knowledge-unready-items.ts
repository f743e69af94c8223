import { sql, type Kysely } from 'kysely';

// Chunks are written in short batches, each its own transaction (docs/decisions/406): until its
// item is ready, search leaves them out by the item's status. This index gives a search the
// owner's items still being ingested (usually none) without reading all the owner's items.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index knowledge_items_unready_idx on knowledge_items(owner_id) where status in ('queued', 'processing')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index knowledge_items_unready_idx`.execute(db);
}
