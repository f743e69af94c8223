import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id text primary key,
      email text not null unique,
      password_hash text not null,
      first_name text not null,
      last_name text not null,
      company_name text,
      mobile_number text,
      user_type text not null default 'CUSTOMER',
      status text not null default 'ACTIVE',
      email_verified_at timestamptz,
      subscription_type integer not null default 1,
      requested_sub_type integer,
      subscribed_since timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table sessions (
      id text primary key,
      token_hash text not null unique,
      user_id text not null references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      remember boolean not null default false,
      admin_proxy boolean not null default false,
      impersonator_id text,
      ip text,
      user_agent text
    );
    create index sessions_user_idx on sessions(user_id);

    create table one_time_codes (
      code_hash text primary key,
      purpose text not null,
      user_id text not null references users(id) on delete cascade,
      created_by text,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index one_time_codes_user_idx on one_time_codes(user_id, purpose);

    create table login_failures (
      id bigserial primary key,
      email text not null,
      failed_at timestamptz not null default now()
    );
    create index login_failures_email_idx on login_failures(email, failed_at);

    create table mail_outbox (
      id text primary key,
      to_address text not null,
      subject text not null,
      text_body text not null,
      html_body text,
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      error text
    );

    create table audit_log (
      id bigserial primary key,
      actor_id text,
      action text not null,
      target text,
      detail jsonb,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table audit_log, mail_outbox, login_failures, one_time_codes, sessions, users`.execute(db);
}
