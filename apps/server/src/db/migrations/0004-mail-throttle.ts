import { sql, type Kysely } from 'kysely';

// When the last mail of each kind went to an address (register, forgot password, the
// verification resent at sign-in): one per kind per interval, decided by one upsert, so every
// API process on the database agrees (issue 20, finding 7; docs/decisions/008-mail-throttle.md).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mail_throttle (
      email text not null,
      kind text not null,
      sent_at timestamptz not null,
      primary key (email, kind)
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table mail_throttle`.execute(db);
}
