import { sql, type Kysely } from 'kysely';

// Re-crawl schedules (issue 15 item 6, docs/decisions/408): a collection may re-crawl its site
// daily or weekly from a start page with include/exclude path patterns; the knowledge worker
// takes a due collection by moving crawl_next_at forward (one node per crawl).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_collections add column crawl_schedule text not null default 'off'`.execute(db);
  await sql`alter table knowledge_collections add column crawl_url text`.execute(db);
  await sql`alter table knowledge_collections add column crawl_include text`.execute(db);
  await sql`alter table knowledge_collections add column crawl_exclude text`.execute(db);
  await sql`alter table knowledge_collections add column crawl_next_at timestamptz`.execute(db);
  await sql`create index knowledge_collections_crawl_due_idx on knowledge_collections(crawl_next_at) where crawl_schedule <> 'off'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index knowledge_collections_crawl_due_idx`.execute(db);
  for (const c of ['crawl_next_at', 'crawl_exclude', 'crawl_include', 'crawl_url', 'crawl_schedule']) {
    await sql`alter table knowledge_collections drop column ${sql.ref(c)}`.execute(db);
  }
}
