// Queries of accounts, sessions and one-time codes. No rules here: auth.service.ts owns them.
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import { UserType } from '@parla/shared/enums';
import type { DB } from '../../db/schema';
import type { UsersTable } from '../../db/tables/accounts';

type Q = Kysely<DB> | Transaction<DB>;

export type CodePurpose = 'verify_email' | 'reset_password' | 'admin_proxy';

export function findUserByEmail(db: Q, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Q, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertUser(db: Q, row: Insertable<UsersTable>) {
  return db.insertInto('users').values(row).execute();
}

export async function countAdmins(db: Q): Promise<number> {
  const r = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_type', '=', 'ADMIN')
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function insertSession(
  db: Q,
  row: {
    id: string;
    token_hash: string;
    user_id: string;
    expires_at: Date;
    remember: boolean;
    admin_proxy: boolean;
    impersonator_id: string | null;
    ip: string | null;
    user_agent: string | null;
  },
) {
  return db.insertInto('sessions').values(row).execute();
}

export function revokeSession(db: Q, sessionId: string, at: Date) {
  return db.updateTable('sessions').set({ revoked_at: at }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

export function revokeUserSessions(db: Q, userId: string, at: Date) {
  return db.updateTable('sessions').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

export function insertCode(
  db: Q,
  row: { code_hash: string; purpose: CodePurpose; user_id: string; created_by: string | null; expires_at: Date },
) {
  return db.insertInto('one_time_codes').values(row).execute();
}

/** Marks a live code used and returns it; a used, expired or unknown code returns undefined.
 *  The update is the check, so two concurrent uses cannot both succeed. */
export function consumeCode(db: Q, codeHash: string, purpose: CodePurpose, now: Date) {
  return db
    .updateTable('one_time_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'created_by'])
    .executeTakeFirst();
}

export function findCode(db: Q, codeHash: string, purpose: CodePurpose) {
  return db.selectFrom('one_time_codes').selectAll().where('code_hash', '=', codeHash).where('purpose', '=', purpose).executeTakeFirst();
}

export function expireUserCodes(db: Q, userId: string, purpose: CodePurpose, now: Date) {
  return db
    .updateTable('one_time_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

export type MailKind = 'verify_email' | 'already_registered' | 'reset_password';

/** Takes one of the address's mails of this kind: a new window when the current one began at or
 *  before `since` (or there was none), else the next mail of the window while fewer than `limit`
 *  went out. One upsert: of processes racing for the last mail, one gets the row. */
export async function claimMailSlot(db: Q, email: string, kind: MailKind, now: Date, since: Date, limit: number): Promise<boolean> {
  const expired = sql<boolean>`mail_throttle.sent_at <= ${since}`;
  const r = await db
    .insertInto('mail_throttle')
    .values({ email, kind, sent_at: now, sent_count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['email', 'kind'])
        .doUpdateSet({
          sent_at: sql`case when ${expired} then ${now} else mail_throttle.sent_at end`,
          sent_count: sql`case when ${expired} then 1 else mail_throttle.sent_count + 1 end`,
        })
        .where((eb) => eb.or([eb('mail_throttle.sent_at', '<=', since), eb('mail_throttle.sent_count', '<', limit)])),
    )
    .returning('email')
    .executeTakeFirst();
  return r !== undefined;
}

/** Locks an account's row until the transaction ends (registration and verification take it
 *  first, so they never interleave). */
export function lockUser(db: Q, userId: string) {
  return db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
}

/** The account of an address nobody has verified, locked until the transaction ends; undefined
 *  when the address is verified (re-read after the lock, so a verification that committed first
 *  wins). */
export function lockPendingAccount(db: Q, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name'])
    .where('email', '=', email)
    .where('email_verified_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export interface Registration {
  password_hash: string;
  first_name: string;
  last_name: string;
  company_name: string | null;
  mobile_number: string | null;
}

export function insertPendingRegistration(db: Q, userId: string, row: Registration, now: Date) {
  return db
    .insertInto('pending_registrations')
    .values({ user_id: userId, ...row, created_at: now })
    .execute();
}

/** Keeps the newest `keep` registrations of an account. */
export function trimPendingRegistrations(db: Q, userId: string, keep: number) {
  return db
    .deleteFrom('pending_registrations')
    .where('user_id', '=', userId)
    .where('id', 'not in', (eb) =>
      eb.selectFrom('pending_registrations').select('id').where('user_id', '=', userId).orderBy('id', 'desc').limit(keep),
    )
    .execute();
}

/** An account's pending registrations, newest first. */
export function pendingRegistrations(db: Q, userId: string, limit: number) {
  return db
    .selectFrom('pending_registrations')
    .select(['password_hash', 'first_name', 'last_name', 'company_name', 'mobile_number'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function deletePendingRegistrations(db: Q, userId: string) {
  return db.deleteFrom('pending_registrations').where('user_id', '=', userId).execute();
}

/** The registration the mailbox owner confirmed becomes the account: its password and names. */
export function applyRegistration(db: Q, userId: string, row: Registration, now: Date) {
  return db
    .updateTable('users')
    .set({ ...row, email_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Inserts an account unless the email exists; returns its id when inserted. */
export function insertUserIfNew(db: Q, row: Insertable<UsersTable>) {
  return db
    .insertInto('users')
    .values(row)
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
}

export function recordLoginFailure(db: Q, email: string, at: Date) {
  return db.insertInto('login_failures').values({ email, failed_at: at }).execute();
}

export async function recentLoginFailures(db: Q, email: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
  const r = await db
    .selectFrom('login_failures')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('failed_at').as('oldest')])
    .where('email', '=', email)
    .where('failed_at', '>', since)
    .executeTakeFirst();
  return { count: Number(r?.n ?? 0), oldest: r?.oldest ? new Date(r.oldest as Date) : null };
}

export function clearLoginFailures(db: Q, email: string) {
  return db.deleteFrom('login_failures').where('email', '=', email).execute();
}

export function audit(db: Q, row: { actor_id: string | null; action: string; target: string | null; detail?: unknown }) {
  return db
    .insertInto('audit_log')
    .values({ ...row, detail: row.detail === undefined ? null : JSON.stringify(row.detail) })
    .execute();
}

/** A new password; proving the inbox (a reset) also verifies it. */
export function setPassword(db: Q, userId: string, passwordHash: string, verifiedAt: Date, now: Date) {
  return db
    .updateTable('users')
    .set({ password_hash: passwordHash, email_verified_at: verifiedAt, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export function makeAdmin(db: Q, userId: string, now: Date) {
  return db.updateTable('users').set({ user_type: UserType.Admin, updated_at: now }).where('id', '=', userId).execute();
}

/** The live session (not revoked, not expired) of an active user, by its token's hash or its id. */
export function findLiveSession(db: Q, by: { tokenHash: string } | { sessionId: string }, now: Date) {
  let q = db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'users.id as id',
      'users.email as email',
      'users.first_name as first_name',
      'users.last_name as last_name',
      'users.user_type as user_type',
      'sessions.id as session_id',
      'sessions.admin_proxy as admin_proxy',
      'sessions.impersonator_id as impersonator_id',
      'sessions.expires_at as expires_at',
    ])
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('users.status', '=', 'ACTIVE');
  q = 'tokenHash' in by ? q.where('sessions.token_hash', '=', by.tokenHash) : q.where('sessions.id', '=', by.sessionId);
  return q.executeTakeFirst();
}
