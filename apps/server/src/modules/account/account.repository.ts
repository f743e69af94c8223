// Queries of the account area: the account row, plan change requests, administrators to notify
// and the avatar count. Rules live in account.service.ts and admin.service.ts.
import { type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

export function findAccount(db: Q, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** The account's status (ACTIVE, SUSPENDED, …), or undefined for no such account. */
export async function accountStatus(db: Q, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('status').where('id', '=', userId).executeTakeFirst();
  return row?.status;
}

/** Those of the accounts that are not active (suspended, or no longer there). */
export async function inactiveAmong(db: Q, userIds: string[]): Promise<string[]> {
  if (!userIds.length) return [];
  const rows = await db.selectFrom('users').select('id').where('id', 'in', userIds).where('status', '<>', 'ACTIVE').execute();
  return rows.map((r) => r.id);
}

/** Emails of the active administrators (they receive plan change requests). */
export async function activeAdminEmails(db: Q): Promise<string[]> {
  const rows = await db.selectFrom('users').select('email').where('user_type', '=', 'ADMIN').where('status', '=', 'ACTIVE').execute();
  return rows.map((r) => r.email);
}

export function insertPlanRequest(
  db: Q,
  row: { id: string; user_id: string; from_sub_type: number; requested_sub_type: number; dh_type: number; requested_at: Date },
) {
  return db.insertInto('subscription_requests').values(row).execute();
}

/** Marks the user's pending request; only when none is pending (the update is the check). */
export async function markPlanRequested(db: Q, userId: string, requested: number, at: Date): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ requested_sub_type: requested, updated_at: at })
    .where('id', '=', userId)
    .where('requested_sub_type', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export function pendingPlanRequest(db: Q, userId: string) {
  return db.selectFrom('subscription_requests').selectAll().where('user_id', '=', userId).where('decision', 'is', null).executeTakeFirst();
}

export function decidePlanRequest(db: Q, requestId: string, decision: 'APPROVED' | 'DECLINED' | 'CANCELLED', adminId: string, at: Date) {
  return db
    .updateTable('subscription_requests')
    .set({ decision, decided_by: adminId, decided_at: at })
    .where('id', '=', requestId)
    .where('decision', 'is', null)
    .executeTakeFirst();
}

/** Clears the user's pending request mark; only when one is set (the update is the check). */
export async function unmarkPlanRequested(db: Q, userId: string, at: Date): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ requested_sub_type: null, updated_at: at })
    .where('id', '=', userId)
    .where('requested_sub_type', 'is not', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
