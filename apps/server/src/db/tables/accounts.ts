import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  company_name: string | null;
  mobile_number: string | null;
  user_type: Generated<string>;
  status: Generated<string>;
  email_verified_at: NullableTimestamp;
  subscription_type: Generated<number>;
  requested_sub_type: number | null;
  subscribed_since: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Date | string;
  revoked_at: NullableTimestamp;
  remember: Generated<boolean>;
  admin_proxy: Generated<boolean>;
  impersonator_id: string | null;
  ip: string | null;
  user_agent: string | null;
}

export interface OneTimeCodesTable {
  code_hash: string;
  purpose: string;
  user_id: string;
  created_by: string | null;
  created_at: Timestamp;
  expires_at: Date | string;
  used_at: NullableTimestamp;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  email: string;
  failed_at: Timestamp;
}

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
  /** The last delivery error (kept while the mail waits for its next attempt). */
  error: string | null;
  /** Migration 0006: the background sender's state (decision 012). */
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  lease_until: NullableTimestamp;
}

export type MailStatus = 'queued' | 'sent' | 'failed';

/** The mails of each kind sent to an address in the current window: `sent_at` is when the
 *  window began, `sent_count` how many went out in it (migrations 0004, 0005). */
export interface MailThrottleTable {
  email: string;
  kind: string;
  sent_at: Date | string;
  sent_count: Generated<number>;
}

/** One registration of an address nobody has verified yet (migration 0005). */
export interface PendingRegistrationsTable {
  id: Generated<string>;
  user_id: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  company_name: string | null;
  mobile_number: string | null;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: string | null;
  action: string;
  target: string | null;
  detail: unknown;
  created_at: Timestamp;
}

export interface AccountTables {
  users: UsersTable;
  sessions: SessionsTable;
  one_time_codes: OneTimeCodesTable;
  login_failures: LoginFailuresTable;
  mail_outbox: MailOutboxTable;
  mail_throttle: MailThrottleTable;
  pending_registrations: PendingRegistrationsTable;
  audit_log: AuditLogTable;
}
