import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface EncryptionKeysTable {
  id: string;
  owner_id: string;
  name: string;
  public_key_pem: string;
  /** Default keys only: the private key, encrypted with the server's secret. */
  private_key_enc: string | null;
  default_key: Generated<boolean>;
  created_at: Timestamp;
}

export interface AccessTokenUsesTable {
  key_id: string;
  jti: string;
  expires_at: Date | string;
}

export interface EncryptionKeyTables {
  encryption_keys: EncryptionKeysTable;
  access_token_uses: AccessTokenUsesTable;
}
