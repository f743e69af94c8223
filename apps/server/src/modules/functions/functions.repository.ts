// Queries of functions. Customer queries take the owner id; the review queries (administrators)
// are named as such.
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import { containsPattern } from '@parla/shared/schemas/paging';
import type { DB } from '../../db/schema';
import type { FunctionCallsTable, FunctionsTable } from '../../db/tables/functions';

type Q = Kysely<DB> | Transaction<DB>;

export function listByOwner(db: Q, ownerId: string) {
  return db.selectFrom('functions').selectAll().where('owner_id', '=', ownerId).orderBy('created_at', 'desc').execute();
}

/** A page of the owner's functions, newest first, read with one row more (decision 221);
 *  `search` keeps the names that contain it, any case. */
export function listPageByOwner(db: Q, ownerId: string, page: { limit: number; offset: number }, search?: string) {
  let q = db.selectFrom('functions').selectAll().where('owner_id', '=', ownerId);
  if (search) q = q.where('name', 'ilike', containsPattern(search));
  return q
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute();
}

export function find(db: Q, ownerId: string, id: string) {
  return db.selectFrom('functions').selectAll().where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

export function findManyByOwner(db: Q, ownerId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('functions').selectAll().where('owner_id', '=', ownerId).where('id', 'in', ids).execute();
}

export function insert(db: Q, row: Insertable<FunctionsTable>) {
  return db.insertInto('functions').values(row).execute();
}

export function update(db: Q, ownerId: string, id: string, patch: Updateable<FunctionsTable>) {
  return db.updateTable('functions').set(patch).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

export function remove(db: Q, ownerId: string, id: string) {
  return db.deleteFrom('functions').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
}

/** Administrators: a page of every customer's functions, those awaiting review first, read with
 *  one row more (decision 221); `search` keeps a function name or owner email containing it. */
export function listForReview(db: Q, page: { limit: number; offset: number }, search?: string) {
  let q = db
    .selectFrom('functions')
    .innerJoin('users', 'users.id', 'functions.owner_id')
    .selectAll('functions')
    .select(['users.email as owner_email', 'users.first_name as owner_first', 'users.last_name as owner_last']);
  if (search) {
    const like = containsPattern(search);
    q = q.where((eb) => eb.or([eb('functions.name', 'ilike', like), eb('users.email', 'ilike', like)]));
  }
  return q
    .orderBy((eb) => eb.case().when('functions.approval_status', '=', 'Pending').then(0).else(1).end())
    .orderBy('functions.updated_at', 'desc')
    .orderBy('functions.id')
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute();
}

export function findForReview(db: Q, id: string) {
  return db.selectFrom('functions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Administrators: a decision, applied only if the code is still the one reviewed. */
export function decide(db: Q, id: string, codeHash: string, patch: Updateable<FunctionsTable>) {
  return db.updateTable('functions').set(patch).where('id', '=', id).where('code_sha256', '=', codeHash).executeTakeFirst();
}

export function history(db: Q, functionId: string) {
  return db
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.actor_id')
    .select(['audit_log.id', 'audit_log.action', 'audit_log.detail', 'audit_log.created_at', 'users.email as actor_email'])
    .where('audit_log.target', '=', `function:${functionId}`)
    .orderBy('audit_log.id', 'desc')
    .limit(100)
    .execute();
}

export function audit(db: Q, row: { actor_id: string | null; action: string; functionId: string; detail: Record<string, unknown> }) {
  return db
    .insertInto('audit_log')
    .values({ actor_id: row.actor_id, action: row.action, target: `function:${row.functionId}`, detail: JSON.stringify(row.detail) })
    .execute();
}

export function insertCalls(db: Q, rows: Insertable<FunctionCallsTable>[]) {
  return db.insertInto('function_calls').values(rows).execute();
}

/** Keeps the newest `keep` calls of a function. */
export function pruneCalls(db: Q, functionId: string, keep: number) {
  return db
    .deleteFrom('function_calls')
    .where('function_id', '=', functionId)
    .where('id', 'not in', (eb) =>
      eb.selectFrom('function_calls').select('id').where('function_id', '=', functionId).orderBy('id', 'desc').limit(keep),
    )
    .execute();
}

/** A page of one function's calls, newest first, with the avatar's name (the owner's avatars only). */
export function callsPage(db: Q, ownerId: string, functionId: string, page: { limit: number; offset: number }) {
  return db
    .selectFrom('function_calls')
    .leftJoin('avatars', (j) => j.onRef('avatars.id', '=', 'function_calls.avatar_id').on('avatars.owner_id', '=', ownerId))
    .select([
      'function_calls.called_at',
      'function_calls.avatar_id',
      'function_calls.duration_ms',
      'function_calls.ok',
      'function_calls.excerpt',
      'avatars.name as avatar_name',
    ])
    .where('function_calls.function_id', '=', functionId)
    .orderBy('function_calls.id', 'desc')
    .limit(page.limit + 1)
    .offset(page.offset)
    .execute();
}
