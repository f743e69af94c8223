import { sql, type Kysely } from 'kysely';

// Embeddings for hybrid search, only where pgvector exists (PGlite has it; Debian's
// PostgreSQL 15 does not). Without the table every search is full-text only. The vector column
// has no fixed dimension because the embedding model is configuration; rows of one model are
// compared with each other only (model column). docs/decisions/400.
export async function up(db: Kysely<unknown>): Promise<void> {
  const res = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'vector'`.execute(db);
  if ((res.rows[0]?.n ?? 0) === 0) return;
  await sql`
    create extension if not exists vector;
    create table knowledge_embeddings (
      chunk_id bigint primary key references knowledge_chunks(id) on delete cascade,
      owner_id text not null,
      collection_id text not null,
      model text not null,
      embedding vector not null
    );
    create index knowledge_embeddings_collection_idx on knowledge_embeddings(collection_id, model);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists knowledge_embeddings`.execute(db);
}
