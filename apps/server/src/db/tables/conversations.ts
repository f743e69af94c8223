import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface ConversationsTable {
  id: string;
  owner_id: string;
  avatar_id: string;
  avatar_name: string;
  avatar_type: string;
  user_id: string;
  user_name: string;
  device_id: string | null;
  device_os: string | null;
  locale: string | null;
  spoken_language: string | null;
  ip_address: string | null;
  node_id: string | null;
  status: Generated<string>;
  started_at: Timestamp;
  last_seen_at: Timestamp;
  ended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  end_reason: string | null;
  /** The server process holding the conversation (decision 630). */
  process_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0620 (issue 13). */
  summary?: string | null;
  verified_user_id?: string | null;
  end_detail?: string | null;
}

export interface ConversationMessagesTable {
  id: string;
  conversation_id: string;
  owner_id: string;
  avatar_id: string;
  seq: number;
  /** 'user' | 'assistant' | 'wake_up' (the hidden first turn). */
  role: string;
  text: string;
  at: Timestamp;
  interrupted: Generated<boolean>;
}

export interface ConversationTables {
  conversations: ConversationsTable;
  conversation_messages: ConversationMessagesTable;
}
