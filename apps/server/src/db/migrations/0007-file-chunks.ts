import { sql, type Kysely } from 'kysely';

// Uploaded files live in the database (issue 34 item 4; decision 015), so every process on one
// PostgreSQL and one backup see them: the bytes in 256 KB chunks, written in the transaction of
// the file's row. `chunk_count` null means the bytes are not in the database yet: a file an
// older release kept in DATA_DIR/files/{rel_path}; the server moves those at start
// (lib/file-move.ts), file by file, so this migration stays quick.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table file_chunks (
      file_id text not null references stored_files(id) on delete cascade,
      idx integer not null,
      data bytea not null,
      primary key (file_id, idx)
    )
  `.execute(db);
  // Videos, images and documents are compressed already: no pglz attempt on each chunk.
  await sql`alter table file_chunks alter column data set storage external`.execute(db);
  await sql`alter table stored_files add column chunk_count integer`.execute(db);
  await sql`alter table stored_files alter column rel_path drop not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table file_chunks`.execute(db);
  await sql`alter table stored_files drop column chunk_count`.execute(db);
}
