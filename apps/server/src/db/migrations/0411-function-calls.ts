import { sql, type Kysely } from 'kysely';

// The call log of functions (issue 39 item 7, decision 415): one row per live call (time, avatar,
// duration, success, a bounded excerpt of the result or error; never the arguments), the newest
// 200 per function kept. Deleting a function deletes its log; deleting an avatar keeps its rows.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table function_calls (
      id bigint generated always as identity primary key,
      function_id text not null references functions(id) on delete cascade,
      avatar_id text,
      called_at timestamptz not null,
      duration_ms integer not null,
      ok boolean not null,
      excerpt text not null
    );
    create index function_calls_function_idx on function_calls(function_id, id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table function_calls;`.execute(db);
}
