import { sql, type Kysely } from 'kysely';

// Avatars (spec 2 §3) and their own media. Secrets (the REST API key, the Dialogflow JSON key,
// the billing authorization header) are stored encrypted (lib/secrets.ts); the pipeline config
// inside custom_data has its api_key/secret_key values encrypted in place. updated_at is the
// optimistic-concurrency version: an update carrying an older one is refused (StaleRequest).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table avatars (
      id text primary key,
      owner_id text not null references users(id) on delete cascade,
      name text not null,
      dh_type text not null,
      appearance_id text not null,
      nlp_engine integer not null default 0,
      setup_mode text not null default 'Simple',
      realtime boolean not null default false,
      token text not null,
      enc_key_id text not null default 'Default',
      permissions integer not null default 0,
      call_back_url text,
      project_id text,
      agent_id text,
      region_id text,
      json_key_enc text,
      rest_api_key_enc text,
      rest_endpoint_url text,
      pool_name text,
      wake_up_message text,
      agent_language text not null default 'en',
      operator_assistance_needed boolean not null default false,
      oauth_enabled smallint not null default 0,
      partner_oauth_app_id text,
      billing_auth_url text,
      billing_auth_ping_time integer not null default 30,
      billing_auth_header_enc text,
      daily_limit_per_session integer not null default -1,
      daily_limit_per_ip integer not null default -1,
      daily_limits jsonb not null default '{}'::jsonb,
      idle_timeout integer not null default 300,
      functions jsonb not null default '[]'::jsonb,
      custom_data jsonb not null default '{}'::jsonb,
      avatar_config_url text,
      client_config_url text,
      avatar_json jsonb not null default '{}'::jsonb,
      client_json jsonb not null default '{}'::jsonb,
      avatar_photo_id text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index avatars_owner_idx on avatars(owner_id, created_at);

    create table avatar_media (
      id text primary key references stored_files(id) on delete cascade,
      avatar_id text not null references avatars(id) on delete cascade,
      owner_id text not null references users(id) on delete cascade,
      list text not null,
      kind text not null,
      ext text not null,
      created_at timestamptz not null default now()
    );
    create index avatar_media_avatar_idx on avatar_media(avatar_id, list);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table avatar_media, avatars`.execute(db);
}
