// Table types for Kysely. Each feature declares its tables in its own file; this composes them.
import type { AccountTables } from './tables/accounts';
import type { ConversationTables } from './tables/conversations';
import type { FileTables } from './tables/files';

export type DB = AccountTables & FileTables & ConversationTables;
