import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface OauthAppsTable {
  /** A number: avatars refer to it as their 'Customer OAuth Config ID' (decision 501). */
  id: Generated<number>;
  owner_id: string;
  app_name: string;
  partner: string;
  client_id: string;
  /** SecretBox ciphertext; never returned in full. */
  client_secret_enc: string;
  oauth_url: string;
  token_issue_url: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OauthTables {
  oauth_apps: OauthAppsTable;
}
