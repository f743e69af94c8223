import { sql, type Kysely } from 'kysely';

// Every stored file has a row here. A file on disk without a row is an orphan (a crash between
// the rename and the commit) and the sweeper removes it; a row always points at a whole file,
// because the file is complete and renamed before the row commits.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table stored_files (
      id text primary key,
      owner_id text not null references users(id) on delete cascade,
      kind text not null,
      rel_path text not null unique,
      original_name text,
      content_type text not null,
      size_bytes bigint not null,
      sha256 text not null,
      created_at timestamptz not null default now()
    );
    create index stored_files_owner_idx on stored_files(owner_id, kind);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table stored_files`.execute(db);
}
