import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface KnowledgeCollectionsTable {
  id: string;
  owner_id: string;
  name: string;
  language: string | null;
  /** Detected from the text when no language was chosen (migration 0405). */
  detected_language: ColumnType<string | null, string | null | undefined, string | null>;
  /** Below KNOWLEDGE_INDEX_VERSION: the chunks wait for a background re-index. */
  index_version: Generated<number>;
  /** While re-indexing: the configuration of chunks not yet rewritten. */
  reindex_from: ColumnType<string | null, string | null | undefined, string | null>;
  /** Re-crawl (migration 0407): 'off' | 'daily' | 'weekly', the start page, path patterns (JSON
   *  arrays) and when the next crawl is due. */
  crawl_schedule: Generated<string>;
  crawl_url: ColumnType<string | null, string | null | undefined, string | null>;
  crawl_include: ColumnType<string | null, string | null | undefined, string | null>;
  crawl_exclude: ColumnType<string | null, string | null | undefined, string | null>;
  crawl_next_at: NullableTimestamp;
  /** Vector back-fill (migration 0408): the embedding model every chunk has a vector of (null:
   *  not known to be complete), the last chunk id done, and until when a worker holds it. */
  vectors_model: ColumnType<string | null, string | null | undefined, string | null>;
  vectors_after: ColumnType<number | string, number | string | undefined, number | string>;
  vectors_lease_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface KnowledgeItemsTable {
  id: string;
  owner_id: string;
  collection_id: string;
  name: string;
  kind: 'text' | 'url' | 'file';
  content: string | null;
  url: string | null;
  file_id: string | null;
  file_name: string | null;
  file_type: string | null;
  /** The normalised URL (url items), for refusing the same page twice in a collection. */
  url_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** sha256 of the extracted text, for skipping the same content twice in a collection. */
  content_hash: ColumnType<string | null, string | null | undefined, string | null>;
  status: Generated<'queued' | 'processing' | 'ready' | 'failed'>;
  fail_reason: string | null;
  attempts: Generated<number>;
  /** Extraction crashes and lapsed leases; a retry keeps it (migration 0403). */
  crashes: Generated<number>;
  locked_until: NullableTimestamp;
  /** The server process holding the item while it is processed, and when it was last claimed
   *  (migration 0409: dead holders are taken over, owners served in turn). */
  process_id: ColumnType<string | null, string | null | undefined, string | null>;
  claimed_at: NullableTimestamp;
  chunk_count: Generated<number>;
  /** Its chunks of this position on are not in knowledge_lexeme_counts yet (being written); null:
   *  all are (migration 0690). */
  uncounted_from: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  processed_at: NullableTimestamp;
}

export interface KnowledgeChunksTable {
  id: Generated<number>;
  owner_id: string;
  collection_id: string;
  item_id: string;
  ord: number;
  content: string;
  ts_config: string;
  /** Written with to_tsvector(ts_config, content); never read as a value. */
  tsv: unknown;
}

/** Written by triggers on knowledge_chunks (migration 0402, docs/decisions/604); read by search. */
export interface KnowledgeChunkTermsTable {
  chunk_id: number;
  owner_id: string;
  collection_id: string;
  ts_config: string;
  lexeme: string;
  tf: number;
  impact: number;
}

/** Chunks per lexeme of a collection's configuration; lexeme '' = all its chunks (migration 0406). */
export interface KnowledgeLexemeCountsTable {
  collection_id: string;
  ts_config: string;
  lexeme: string;
  owner_id: string;
  df: number;
}

/** Exists only where pgvector is available (migration 0401). */
export interface KnowledgeEmbeddingsTable {
  chunk_id: number;
  owner_id: string;
  collection_id: string;
  model: string;
  embedding: unknown;
}

export interface KnowledgeTables {
  knowledge_collections: KnowledgeCollectionsTable;
  knowledge_items: KnowledgeItemsTable;
  knowledge_chunks: KnowledgeChunksTable;
  knowledge_chunk_terms: KnowledgeChunkTermsTable;
  knowledge_lexeme_counts: KnowledgeLexemeCountsTable;
  knowledge_embeddings: KnowledgeEmbeddingsTable;
}
