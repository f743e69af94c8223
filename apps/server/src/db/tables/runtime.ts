import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface UsageCountersTable {
  scope: string;
  key: string;
  /** YYYY-MM-DD (UTC). */
  day: ColumnType<Date | string, string, string>;
  seconds: Generated<number>;
  updated_at: Timestamp;
}

export interface ConversationTurnsTable {
  id: string;
  conversation_id: string;
  owner_id: string;
  avatar_id: string;
  at: Timestamp;
  first_delta_ms: number | null;
  engine_ms: number;
  retrieval_ms: Generated<number>;
  interrupted: Generated<boolean>;
}

export interface PipelineNodesTable {
  id: string;
  name: string;
  status: string;
  in_process: Generated<boolean>;
  address: Generated<string>;
  private_ip: Generated<string>;
  remote_ip: Generated<string>;
  web_socket: Generated<string>;
  capacity: number;
  sessions: Generated<number>;
  session_id: Generated<string>;
  assigned_user_id: Generated<string>;
  created_at: Timestamp;
  last_connect_at: Timestamp;
  last_ping_at: Timestamp;
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The server process the node is connected to (null: written before decision 630). */
  process_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ConversationGrantsTable {
  id_hash: string;
  avatar_id: string;
  owner_id: string;
  app_id: number;
  subject: Generated<string>;
  /** `oauth:{appId}:{sub}` of a verified id_token (migration 0650); null when not verified. */
  verified_subject?: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A server process over this database, alive while seen_at is recent (decision 630). */
/** An OAuth gate sign-in not yet finished: its state's nonce, hashed; spent by the callback
 *  (migration 0005, decision 011). */
export interface OAuthStatesTable {
  nonce_hash: string;
  expires_at: Timestamp;
}

export interface RuntimeProcessesTable {
  id: string;
  host: Generated<string>;
  started_at: Timestamp;
  seen_at: Timestamp;
}

/** A message waiting for the process it is addressed to. */
export interface RuntimeDeliveriesTable {
  id: Generated<number>;
  process_id: string;
  kind: string;
  payload: string;
  created_at: Timestamp;
}

export interface RuntimeTables {
  runtime_processes: RuntimeProcessesTable;
  runtime_deliveries: RuntimeDeliveriesTable;
  conversation_grants: ConversationGrantsTable;
  oauth_states: OAuthStatesTable;
  usage_counters: UsageCountersTable;
  conversation_turns: ConversationTurnsTable;
  pipeline_nodes: PipelineNodesTable;
}
