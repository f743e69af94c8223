import { sql, type Kysely } from 'kysely';

// One row per conversation between an end user and an avatar: the online-users lists read the
// open ones (ended_at is null), the billing report sums the closed ones. avatar_name and
// avatar_type are copied at start so a deleted avatar is still reported by name.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table conversations (
      id text primary key,
      owner_id text not null references users(id) on delete cascade,
      avatar_id text not null,
      avatar_name text not null,
      avatar_type text not null,
      user_id text not null,
      user_name text not null,
      device_id text,
      device_os text,
      locale text,
      spoken_language text,
      ip_address text,
      node_id text,
      status text not null default 'ONLINE',
      started_at timestamptz not null,
      last_seen_at timestamptz not null,
      ended_at timestamptz,
      end_reason text
    );
    create index conversations_owner_time_idx on conversations(owner_id, started_at);
    create index conversations_avatar_open_idx on conversations(avatar_id) where ended_at is null;
    create index conversations_open_idx on conversations(owner_id) where ended_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table conversations`.execute(db);
}
