import { sql, type Kysely } from 'kysely';

// Mail is sent by a background sender, never inside a request (issue 34 item 2; decision 012):
// each row is queued, sent or failed; a sender claims due rows with a lease (so several
// processes on one database never send one mail twice at once), counts attempts and records the
// last error. Rows written before this were sent, logged (no SMTP) or failed for good.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table mail_outbox
      add column status text not null default 'queued',
      add column attempts integer not null default 0,
      add column next_attempt_at timestamptz not null default now(),
      add column lease_until timestamptz
  `.execute(db);
  await sql`update mail_outbox set status = case when error is not null and sent_at is null then 'failed' else 'sent' end`.execute(db);
  await sql`create index mail_outbox_due_idx on mail_outbox (next_attempt_at) where status = 'queued'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index mail_outbox_due_idx`.execute(db);
  await sql`
    alter table mail_outbox drop column status, drop column attempts, drop column next_attempt_at, drop column lease_until
  `.execute(db);
}
