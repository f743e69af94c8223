import type { ColumnType, Generated } from 'kysely';
import type { OwnModelRig } from '@parla/shared/own-model';

/** The model's viseme atlas, made in the customer's browser (decision 127): three stored files,
 *  each also an avatar_media row of list 'atlas'. */
export interface OwnModelAtlasColumn {
  manifestId: string;
  imageId: string;
  imageExt: string;
  stillId: string;
  stillExt: string;
}

/** avatars.own_model: the stored file and what the model check found in it (decision 123), and
 *  its viseme atlas once the browser has made one (decision 127; no migration: jsonb). */
export interface OwnModelColumn {
  fileId: string;
  ext: string;
  rig: OwnModelRig;
  atlas?: OwnModelAtlasColumn;
}

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** jsonb: parsed on read, written as JSON text. */
type Json<T = unknown> = ColumnType<T, string, string>;

export interface AvatarsTable {
  id: string;
  owner_id: string;
  name: string;
  dh_type: string;
  appearance_id: string;
  nlp_engine: Generated<number>;
  setup_mode: Generated<string>;
  realtime: Generated<boolean>;
  token: string;
  /** 'Default' or 'None': the option when no key is linked (avatar_encryption_keys, 0220). */
  enc_key_id: Generated<string>;
  permissions: Generated<number>;
  call_back_url: string | null;
  project_id: string | null;
  agent_id: string | null;
  region_id: string | null;
  json_key_enc: string | null;
  rest_api_key_enc: string | null;
  rest_endpoint_url: string | null;
  pool_name: string | null;
  wake_up_message: string | null;
  agent_language: Generated<string>;
  operator_assistance_needed: Generated<boolean>;
  oauth_enabled: Generated<number>;
  partner_oauth_app_id: string | null;
  billing_auth_url: string | null;
  billing_auth_ping_time: Generated<number>;
  billing_auth_header_enc: string | null;
  daily_limit_per_session: Generated<number>;
  daily_limit_per_ip: Generated<number>;
  daily_limits: Json<Record<string, number>>;
  idle_timeout: Generated<number>;
  /** Allowed websites (normalised origins); [] = any site. Migration 0201. */
  allowed_origins: ColumnType<string[], string | undefined, string>;
  custom_data: Json<Record<string, unknown>>;
  avatar_config_url: string | null;
  client_config_url: string | null;
  avatar_json: Json<Record<string, unknown>>;
  client_json: Json<Record<string, unknown>>;
  avatar_photo_id: string | null;
  /** The customer's own 3D model and its rig (migration 0230); null: a catalogue appearance. */
  own_model: ColumnType<OwnModelColumn | null, string | null | undefined, string | null>;
  /** Why the last conversation could not start (owner's words); null once one starts (migration 0240). */
  start_failure: ColumnType<string | null, string | null | undefined, string | null>;
  start_failure_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AvatarMediaTable {
  id: string;
  avatar_id: string;
  owner_id: string;
  /** 'backgroundImage' | 'scene' | 'photo' | 'model' */
  list: string;
  /** 'image' | 'video' | 'glb' */
  kind: string;
  ext: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Links of migration 0220: foreign keys with ON DELETE CASCADE on both sides. */
export interface AvatarKnowledgeCollectionsTable {
  avatar_id: string;
  collection_id: string;
  position: number;
}

export interface AvatarFunctionsTable {
  avatar_id: string;
  function_id: string;
  position: number;
}

export interface AvatarEncryptionKeysTable {
  avatar_id: string;
  key_id: string;
}

export interface AvatarTables {
  avatars: AvatarsTable;
  avatar_media: AvatarMediaTable;
  avatar_knowledge_collections: AvatarKnowledgeCollectionsTable;
  avatar_functions: AvatarFunctionsTable;
  avatar_encryption_keys: AvatarEncryptionKeysTable;
}
