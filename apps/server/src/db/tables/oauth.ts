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
  /** OpenID issuer and JWKS URL of the partner's id_tokens (migration 0650); null = none. */
  issuer?: string | null;
  jwks_url?: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OauthTables {
  oauth_apps: OauthAppsTable;
}
