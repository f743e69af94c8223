// Queries of the customers desk. Only customer accounts are listed or changed here.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

/** Customers matching a search (name or email), pending plan requests first, then newest. */
/** A page of customers, read with one row more (decision 221). */
export function listCustomers(db: Q, search: string | undefined, page: { limit: number; offset: number }) {
  let q = db
    .selectFrom('users')
    .leftJoin('subscription_requests as r', (j) => j.onRef('r.user_id', '=', 'users.id').on('r.decision', 'is', null))
    .select([
      'users.id',
      'users.first_name',
      'users.last_name',
      'users.email',
      'users.status',
      'users.email_verified_at',
      'users.subscription_type',
      'users.requested_sub_type',
      'users.created_at',
      'r.requested_at',
    ])
    .where('users.user_type', '=', 'CUSTOMER');
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('users.email', 'ilike', like),
        eb('users.first_name', 'ilike', like),
        eb('users.last_name', 'ilike', like),
        eb(sql<string>`users.first_name || ' ' || users.last_name`, 'ilike', like),
      ]),
    );
  }
  return q
    .orderBy((eb) => eb.case().when('users.requested_sub_type', 'is not', null).then(0).else(1).end())
    .orderBy('users.created_at', 'desc')
    .orderBy('users.id')
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute();
}

export function findCustomer(db: Q, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).where('user_type', '=', 'CUSTOMER').executeTakeFirst();
}

export function applyPlan(db: Q, userId: string, subType: number, at: Date) {
  return db
    .updateTable('users')
    .set({ subscription_type: subType, requested_sub_type: null, subscribed_since: at, updated_at: at })
    .where('id', '=', userId)
    .execute();
}

export function clearRequestedPlan(db: Q, userId: string, at: Date) {
  return db.updateTable('users').set({ requested_sub_type: null, updated_at: at }).where('id', '=', userId).execute();
}

export function setStatus(db: Q, userId: string, status: string, at: Date) {
  return db.updateTable('users').set({ status, updated_at: at }).where('id', '=', userId).execute();
}
