// The mail outbox rows of lib/mailer.ts: every message is kept, with when it was sent or why not.
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

export function insert(
  db: Kysely<DB>,
  row: { id: string; to_address: string; subject: string; text_body: string; html_body: string | null },
) {
  return db.insertInto('mail_outbox').values(row).execute();
}

export function markSent(db: Kysely<DB>, id: string, at: Date) {
  return db.updateTable('mail_outbox').set({ sent_at: at }).where('id', '=', id).execute();
}

export function markFailed(db: Kysely<DB>, id: string, reason: string) {
  return db
    .updateTable('mail_outbox')
    .set({ error: reason.slice(0, 500) })
    .where('id', '=', id)
    .execute();
}
