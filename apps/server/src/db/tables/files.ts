import type { ColumnType } from 'kysely';

export interface StoredFilesTable {
  id: string;
  owner_id: string;
  kind: string;
  /** Where an older release kept the bytes (DATA_DIR/files/…); null once they are in file_chunks. */
  rel_path: string | null;
  original_name: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string;
  /** Chunks in file_chunks; null while the bytes are still on an older release's disk. */
  chunk_count: number | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface FileChunksTable {
  file_id: string;
  idx: number;
  data: Uint8Array;
}

export interface FileTables {
  stored_files: StoredFilesTable;
  file_chunks: FileChunksTable;
}
