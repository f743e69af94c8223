import { sql, type Kysely } from 'kysely';

// Every registration of an address nobody has verified yet keeps its own password and names: a
// later registration no longer replaces an earlier one, and the verification applies the one
// whose password the mailbox owner types (issue 33, item 4; docs/decisions/011-mailbox-decides-the-password-and-oauth-state.md). The mail
// throttle counts mails per window, so a few verification mails per address may go out in one
// (the owner's own first mail is not held by an attacker's single registration before hers).
// oauth_states: an OAuth gate's sign-in state is spent once (issue 33, item 6): the callback
// deletes its row before any code exchange.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table pending_registrations (
      id bigserial primary key,
      user_id text not null references users(id) on delete cascade,
      password_hash text not null,
      first_name text not null,
      last_name text not null,
      company_name text,
      mobile_number text,
      created_at timestamptz not null default now()
    );
    create index pending_registrations_user_idx on pending_registrations(user_id, id);
    insert into pending_registrations (user_id, password_hash, first_name, last_name, company_name, mobile_number, created_at)
      select id, password_hash, first_name, last_name, company_name, mobile_number, updated_at
      from users where email_verified_at is null;
    alter table mail_throttle add column sent_count integer not null default 1;

    create table oauth_states (
      nonce_hash text primary key,
      expires_at timestamptz not null
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table oauth_states;
    alter table mail_throttle drop column sent_count;
    drop table pending_registrations;
  `.execute(db);
}
