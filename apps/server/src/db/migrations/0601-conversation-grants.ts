import { sql, type Kysely } from 'kysely';

// Single-use grants from an end user's OAuth sign-in with an avatar's partner: the callback
// stores one (hashed) and the conversation socket consumes it. Shared by every server process.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table conversation_grants (
      id_hash text primary key,
      avatar_id text not null,
      owner_id text not null,
      app_id integer not null,
      subject text not null default '',
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index conversation_grants_expiry_idx on conversation_grants(expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table conversation_grants`.execute(db);
}
