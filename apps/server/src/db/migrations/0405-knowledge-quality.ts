import { sql, type Kysely } from 'kysely';

// Retrieval quality (issue 15, docs/decisions/407):
// - a collection without a chosen language gets one detected from its text (detected_language);
// - its chunks are re-indexed in the background (index_version below the current one: item
//   names join the chunk's text, the detected language's configuration) — never here, so a
//   large knowledge base does not hold up start-up; while that runs, reindex_from names the
//   configuration the chunks not yet rewritten still have, and search looks in both;
// - duplicates are refused per collection: url_key (the normalised URL) and content_hash.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_collections add column detected_language text`.execute(db);
  await sql`alter table knowledge_collections add column index_version integer not null default 0`.execute(db);
  await sql`alter table knowledge_collections add column reindex_from text`.execute(db);
  await sql`alter table knowledge_items add column url_key text`.execute(db);
  await sql`alter table knowledge_items add column content_hash text`.execute(db);
  await sql`create index knowledge_items_url_key_idx on knowledge_items(collection_id, url_key) where url_key is not null`.execute(db);
  await sql`create index knowledge_items_content_hash_idx on knowledge_items(collection_id, content_hash) where content_hash is not null`.execute(
    db,
  );
  await sql`create index knowledge_collections_reindex_idx on knowledge_collections(index_version)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index knowledge_collections_reindex_idx`.execute(db);
  await sql`drop index knowledge_items_content_hash_idx`.execute(db);
  await sql`drop index knowledge_items_url_key_idx`.execute(db);
  await sql`alter table knowledge_items drop column content_hash`.execute(db);
  await sql`alter table knowledge_items drop column url_key`.execute(db);
  await sql`alter table knowledge_collections drop column reindex_from`.execute(db);
  await sql`alter table knowledge_collections drop column index_version`.execute(db);
  await sql`alter table knowledge_collections drop column detected_language`.execute(db);
}
