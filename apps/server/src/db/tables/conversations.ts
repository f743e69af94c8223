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
  /** Migration 0640 (issue 38): read once from the transcript after the end. */
  analysed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  turns: Generated<number>;
  knowledge_turns: Generated<number>;
  unanswered_turns: Generated<number>;
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
  /** Migration 0640, on the avatar's messages: null = no knowledge search, else passages used. */
  knowledge_hits: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface KnowledgeGapsTable {
  id: string;
  owner_id: string;
  avatar_id: string;
  /** 'open' | 'resolved' | 'dismissed'. */
  status: Generated<string>;
  question: string;
  asked: Generated<number>;
  first_at: Timestamp;
  last_at: Timestamp;
  resolved_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** 'answered' (a later question was answered from knowledge) | 'written' (the customer wrote the answer). */
  resolved_by: string | null;
  item_id: string | null;
}

export interface KnowledgeGapQuestionsTable {
  id: string;
  gap_id: string;
  owner_id: string;
  avatar_id: string;
  conversation_id: string;
  text: string;
  /** Space-separated. */
  lexemes: string;
  /** The text-search configuration the lexemes were made with (the avatar's collection's language). */
  ts_config: string;
  /** 'no_knowledge' | 'did_not_know' | 'asked_again'. */
  reason: string;
  at: Timestamp;
}

type Day = ColumnType<Date, Date | string, Date | string>;

/** Migration 0641: an avatar's analysed conversations of one UTC day (of their start). */
export interface InsightDaysTable {
  owner_id: string;
  avatar_id: string;
  day: Day;
  conversations: Generated<number>;
  seconds: Generated<number>;
  /** Each conversation's duration in seconds (the median of a range is taken over these). */
  durations: Generated<number[]>;
  turns: Generated<number>;
  knowledge_turns: Generated<number>;
  unanswered_turns: Generated<number>;
}

/** Migration 0641: how often a question (by its folded key) was asked on one UTC day. */
export interface InsightQuestionsTable {
  owner_id: string;
  avatar_id: string;
  day: Day;
  key: string;
  /** The first of its spellings (min). */
  text: string;
  asked: number;
}

/** Migration 0641: how often a question (by its folded key) was asked, all days together. */
export interface InsightQuestionKeysTable {
  owner_id: string;
  avatar_id: string;
  key: string;
  asked: number;
}

export interface ConversationTables {
  conversations: ConversationsTable;
  conversation_messages: ConversationMessagesTable;
  knowledge_gaps: KnowledgeGapsTable;
  knowledge_gap_questions: KnowledgeGapQuestionsTable;
  insight_days: InsightDaysTable;
  insight_questions: InsightQuestionsTable;
  insight_question_keys: InsightQuestionKeysTable;
}
