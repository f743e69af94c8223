import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface FunctionsTable {
  id: string;
  owner_id: string;
  name: string;
  code: string;
  language: Generated<string>;
  code_sha256: string;
  approval_status: Generated<'Pending' | 'Approved' | 'Rejected'>;
  approved_code_sha256: string | null;
  review_reason: string | null;
  reviewed_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  admin_updated_at: NullableTimestamp;
}

export interface FunctionCallsTable {
  id: Generated<string>;
  function_id: string;
  avatar_id: string | null;
  called_at: Timestamp;
  duration_ms: number;
  ok: boolean;
  excerpt: string;
}

export interface FunctionTables {
  functions: FunctionsTable;
  function_calls: FunctionCallsTable;
}
