import { sql, type Kysely } from 'kysely';

// knowledge_lexeme_counts is updated far more than it grows: each item written adds one to the df
// of every word its chunks hold (a collection of 6,000 words took 112,000 updates for 30 items).
// At the default fillfactor (100) its pages are full, so an updated row's new version goes to
// another page, with a new entry in the primary key, and the old one stays until a VACUUM, which
// PGlite never runs by itself. Pages half empty keep the new version beside the old (a HOT update:
// no index entry; the page is pruned as it fills): an upsert of the counts took 13.4 µs a row
// instead of 21.4 on PGlite, and the table and its index stayed smaller (issue 37 item 3, decision
// 406's amendment of 2026-11-29 (4)). What the rows hold does not change; pages written before
// this migration keep their rows until they are rewritten.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_lexeme_counts set (fillfactor = 50)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_lexeme_counts reset (fillfactor)`.execute(db);
}
