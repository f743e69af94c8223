import type { ColumnType } from 'kysely';

export interface StoredFilesTable {
  id: string;
  owner_id: string;
  kind: string;
  rel_path: string;
  original_name: string | null;
  content_type: string;
  size_bytes: number;
  sha256: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface FileTables {
  stored_files: StoredFilesTable;
}
