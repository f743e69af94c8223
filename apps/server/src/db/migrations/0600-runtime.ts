import { sql, type Kysely } from 'kysely';

// The conversation runtime's own tables:
// - usage_counters: seconds of conversation per day and scope (an avatar's end-user session,
//   an avatar's IP address, an avatar's demo allowance per IP). Persisted so a reconnect, a new
//   session or a server restart does not reset a limit.
// - conversation_turns: per-turn latency (time to first delta, engine time, retrieval time).
// - pipeline_nodes: the registry of nodes ("VPS") the administrators see.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table usage_counters (
      scope text not null,
      key text not null,
      day date not null,
      seconds double precision not null default 0,
      updated_at timestamptz not null,
      primary key (scope, key, day)
    );
    create table conversation_turns (
      id text primary key,
      conversation_id text not null,
      owner_id text not null,
      avatar_id text not null,
      at timestamptz not null,
      first_delta_ms double precision,
      engine_ms double precision not null,
      retrieval_ms double precision not null default 0,
      interrupted boolean not null default false
    );
    create index conversation_turns_avatar_idx on conversation_turns(avatar_id, at);
    create table pipeline_nodes (
      id text primary key,
      name text not null,
      status text not null,
      in_process boolean not null default false,
      address text not null default '',
      private_ip text not null default '',
      remote_ip text not null default '',
      web_socket text not null default '',
      capacity integer not null,
      sessions integer not null default 0,
      session_id text not null default '',
      assigned_user_id text not null default '',
      created_at timestamptz not null,
      last_connect_at timestamptz not null,
      last_ping_at timestamptz not null,
      last_used_at timestamptz
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table pipeline_nodes; drop table conversation_turns; drop table usage_counters;`.execute(db);
}
