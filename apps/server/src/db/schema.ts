// Table types for Kysely. Each feature declares its tables in its own file; this composes them.
import type { AccountAreaTables } from './tables/account';
import type { AccountTables } from './tables/accounts';
import type { AvatarTables } from './tables/avatars';
import type { ConversationTables } from './tables/conversations';
import type { EncryptionKeyTables } from './tables/encryption-keys';
import type { FileTables } from './tables/files';
import type { FunctionTables } from './tables/functions';
import type { KnowledgeTables } from './tables/knowledge';
import type { OauthTables } from './tables/oauth';
import type { RuntimeTables } from './tables/runtime';

export type DB = AccountAreaTables &
  AccountTables &
  AvatarTables &
  ConversationTables &
  EncryptionKeyTables &
  FileTables &
  FunctionTables &
  KnowledgeTables &
  OauthTables &
  RuntimeTables;
