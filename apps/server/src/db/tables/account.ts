import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Every plan change a customer asked for, and what an administrator decided. The pending one
 *  is mirrored in users.requested_sub_type, which the account screen reads. */
export interface SubscriptionRequestsTable {
  id: string;
  user_id: string;
  from_sub_type: number;
  requested_sub_type: number;
  dh_type: number;
  requested_at: Timestamp;
  decision: 'APPROVED' | 'DECLINED' | 'CANCELLED' | null;
  decided_at: NullableTimestamp;
  decided_by: string | null;
}

export interface AccountAreaTables {
  subscription_requests: SubscriptionRequestsTable;
}
