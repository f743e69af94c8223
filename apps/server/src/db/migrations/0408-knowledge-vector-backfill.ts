import { sql, type Kysely } from 'kysely';

// Vectors for items that existed before an embedding provider was configured (issue 15 item 4,
// docs/decisions/409): a collection records the model all its chunks have vectors of, how far
// the background back-fill has come (a chunk id) and until when one worker holds it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table knowledge_collections add column vectors_model text`.execute(db);
  await sql`alter table knowledge_collections add column vectors_after bigint not null default 0`.execute(db);
  await sql`alter table knowledge_collections add column vectors_lease_until timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of ['vectors_lease_until', 'vectors_after', 'vectors_model']) {
    await sql`alter table knowledge_collections drop column ${sql.ref(c)}`.execute(db);
  }
}
