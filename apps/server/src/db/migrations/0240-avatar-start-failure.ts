import { sql, type Kysely } from 'kysely';

// Why the avatar's last conversation could not start (issue 39 item 3), in the owner's words, for
// the avatar's card: a visitor only sees "could not start"; the owner sees the reason. Cleared by
// the next conversation that starts. Written by the runtime; never moves `updated_at`.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table avatars add column start_failure text, add column start_failure_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table avatars drop column start_failure, drop column start_failure_at`.execute(db);
}
