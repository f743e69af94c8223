// The mail outbox (decision 012): every mail is a row, written by the request (in the transaction
// of the change that causes it) and sent by the background sender of lib/mailer.ts, which claims
// a due row with a lease, then marks it sent, due again later with its error, or failed.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../db/schema';
import type { MailOutboxTable } from '../db/tables/accounts';

export type OutboxMail = Selectable<MailOutboxTable>;

export function insert(
  db: Kysely<DB>,
  row: { id: string; to_address: string; subject: string; text_body: string; html_body: string | null; next_attempt_at: Date },
) {
  return db.insertInto('mail_outbox').values(row).execute();
}

/** Takes the oldest due mail for one attempt: nobody else takes it until `leaseUntil` (a sender
 *  that died mid-attempt leaves it to another after that). SKIP LOCKED lets several processes
 *  claim side by side; PGlite, with its one connection, runs the same statement. */
export async function claimDue(db: Kysely<DB>, now: Date, leaseUntil: Date): Promise<OutboxMail | undefined> {
  const res = await sql<OutboxMail>`
    update mail_outbox set attempts = attempts + 1, lease_until = ${leaseUntil}
    where id = (
      select id from mail_outbox
      where status = 'queued' and next_attempt_at <= ${now} and (lease_until is null or lease_until < ${now})
      order by next_attempt_at
      limit 1
      for update skip locked
    )
    returning *
  `.execute(db);
  return res.rows[0];
}

/** When the next queued mail is due, if any. */
export async function nextDueAt(db: Kysely<DB>): Promise<Date | null> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return row?.at ? new Date(row.at) : null;
}

export function markSent(db: Kysely<DB>, id: string, at: Date) {
  return db.updateTable('mail_outbox').set({ status: 'sent', sent_at: at, lease_until: null }).where('id', '=', id).execute();
}

/** The attempt failed for now: due again at `at`, with its error kept for the administrator. */
export function retryLater(db: Kysely<DB>, id: string, at: Date, reason: string) {
  return db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: at, lease_until: null, error: reason.slice(0, 500) })
    .where('id', '=', id)
    .execute();
}

export function markFailed(db: Kysely<DB>, id: string, reason: string) {
  return db
    .updateTable('mail_outbox')
    .set({ status: 'failed', lease_until: null, error: reason.slice(0, 500) })
    .where('id', '=', id)
    .execute();
}

/** What the administrator is shown: mails waiting, those that failed at least once or for good
 *  since `since`, and the latest error among them. */
export async function deliveryHealth(db: Kysely<DB>, since: Date) {
  const counts = await db
    .selectFrom('mail_outbox')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('status', '=', 'queued').as('waiting'),
      eb.fn
        .countAll<string>()
        .filterWhere(eb.and([eb('status', '=', 'queued'), eb('error', 'is not', null)]))
        .as('retrying'),
      eb.fn
        .countAll<string>()
        .filterWhere(eb.and([eb('status', '=', 'failed'), eb('created_at', '>=', since)]))
        .as('failed'),
    ])
    .executeTakeFirstOrThrow();
  const last = await db
    .selectFrom('mail_outbox')
    .select(['error', 'next_attempt_at'])
    .where('error', 'is not', null)
    .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'failed'), eb('created_at', '>=', since)])]))
    .orderBy('next_attempt_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    waiting: Number(counts.waiting),
    retrying: Number(counts.retrying),
    failed: Number(counts.failed),
    lastError: last?.error ?? null,
  };
}
