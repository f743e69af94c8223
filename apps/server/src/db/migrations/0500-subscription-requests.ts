import { sql, type Kysely } from 'kysely';

// Plan change requests and their decisions. At most one pending request per customer: the
// partial unique index makes a second concurrent request fail instead of leaving two.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table subscription_requests (
      id text primary key,
      user_id text not null references users(id) on delete cascade,
      from_sub_type integer not null,
      requested_sub_type integer not null,
      dh_type integer not null default 2,
      requested_at timestamptz not null default now(),
      decision text check (decision in ('APPROVED', 'DECLINED')),
      decided_at timestamptz,
      decided_by text
    );
    create unique index subscription_requests_pending_idx on subscription_requests(user_id) where decision is null;
    create index subscription_requests_user_idx on subscription_requests(user_id, requested_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table subscription_requests`.execute(db);
}
