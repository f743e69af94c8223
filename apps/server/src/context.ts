// What every module receives: configuration, database and the shared services.
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/database';
import type { DB } from './db/schema';
import type { DiskSpace } from './lib/disk-space';
import type { FileStore } from './lib/file-store';
import type { Mailer } from './lib/mailer';
import type { OutboundClient } from './lib/outbound';
import type { SecretBox } from './lib/secrets';
import type { SessionCache } from './modules/auth/session-cache';

export interface AppContext {
  config: Config;
  database: Database;
  db: Kysely<DB>;
  secrets: SecretBox;
  /** Signing key of the knowledge API's JWTs, derived from SECRET_KEY. */
  jwtKey: Buffer;
  outbound: OutboundClient;
  mailer: Mailer;
  files: FileStore;
  /** Free space of DATA_DIR: uploads and PGlite writes refused when it runs out (decision 013). */
  disk: DiskSpace;
  /** Session look-ups kept a few seconds, dropped when the database says so (decision 017). */
  sessions: SessionCache;
  log: FastifyBaseLogger;
  /** Injectable clock: tests move time instead of waiting. */
  now(): Date;
}
