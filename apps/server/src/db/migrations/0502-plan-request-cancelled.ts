import { sql, type Kysely } from 'kysely';

// A customer may cancel their pending plan change request (issue 17): the request stays in the
// history with the decision CANCELLED, decided by the customer.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table subscription_requests drop constraint subscription_requests_decision_check;
    alter table subscription_requests add constraint subscription_requests_decision_check
      check (decision in ('APPROVED', 'DECLINED', 'CANCELLED'));
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from subscription_requests where decision = 'CANCELLED';
    alter table subscription_requests drop constraint subscription_requests_decision_check;
    alter table subscription_requests add constraint subscription_requests_decision_check
      check (decision in ('APPROVED', 'DECLINED'));
  `.execute(db);
}
