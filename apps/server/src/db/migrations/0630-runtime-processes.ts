import { sql, type Kysely } from 'kysely';

// Several API processes over one database (issue 16, decision 630): each process has a row it
// touches every few seconds; messages addressed to a live conversation, a node or every process
// wait in runtime_deliveries until the process they are for takes them. Conversations and
// pipeline nodes name the process that holds them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table runtime_processes (
      id text primary key,
      host text not null default '',
      started_at timestamptz not null,
      seen_at timestamptz not null
    );
    create table runtime_deliveries (
      id bigint generated always as identity primary key,
      process_id text not null,
      kind text not null,
      payload text not null,
      created_at timestamptz not null
    );
    create index runtime_deliveries_process_idx on runtime_deliveries(process_id, id);
    alter table conversations add column process_id text;
    alter table pipeline_nodes add column process_id text;
    create index conversations_process_open_idx on conversations(process_id) where ended_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index conversations_process_open_idx;
    alter table pipeline_nodes drop column process_id;
    alter table conversations drop column process_id;
    drop table runtime_deliveries;
    drop table runtime_processes;
  `.execute(db);
}
