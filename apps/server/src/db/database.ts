// One factory for the database: PostgreSQL through a pg Pool when a URL is given, otherwise
// PGlite stored in DATA_DIR/pg. Both run the same SQL and the same migrations.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { hearOnEveryConnection, listenPglite, listenPostgres, type Listening, type NotifyHandlers } from './notifications';
import { PGLITE_EXTENSIONS } from './pglite-extensions';
import { PGliteDialect } from './pglite-dialect';
import type { PriorityGate } from './pglite-gate';
import type { DB } from './schema';

export interface Database {
  db: Kysely<DB>;
  kind: 'postgres' | 'pglite';
  /** Whether the pgvector extension can be used (PGlite has it; Debian's PostgreSQL 15 does not). */
  hasVector: boolean;
  /** PostgreSQL only: the schema every table lives in, when not the default. */
  schema?: string;
  /** PGlite only: the gate of its one connection (requests before background work, decision 222). */
  gate?: PriorityGate;
  /** PGlite only: refuse writes while `blocked()` says so (a full disk, lib/disk-space.ts). */
  guardWrites?(blocked: () => boolean): void;
  /** PGlite only: a consistent copy of the data directory (a tar), taken while it runs: the
   *  one connection is held meanwhile, so no statement lands half-way (backup, decision 013). */
  dump?(): Promise<Blob>;
  /** LISTEN on `channel` (db/notifications.ts): a connection of its own on PostgreSQL, PGlite's
   *  listener otherwise. Resolves once notifications are heard. */
  listen(channel: string, on: NotifyHandlers): Promise<Listening>;
  /** PostgreSQL only: the pool's connections hear `channel` too, so this process's own writes are
   *  heard before their commit returns (db/notifications.ts). Returns the unsubscribe. */
  hearOwnWrites?(channel: string, notify: (payload: string) => void): () => void;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** PostgreSQL only: put every table in this schema (test isolation). */
  schema?: string;
  /** PGlite only: start from a dumped data directory (tests start from a migrated snapshot). */
  loadDataDir?: Blob;
  log?: (message: string, err: unknown) => void;
}

/**
 * A sequential scan of a table larger than a quarter of shared_buffers starts where the last one
 * stopped (synchronized scans), so a LIMIT without ORDER BY answered different rows from one
 * statement to the next: the knowledge search's sample of a common word's first matches (decision
 * 409, "in index order") changed with whatever scan ran before, and with it the ranking (Bench 4 at
 * 100,000 chunks: "acme" and "acme refund policy?" ranked other chunks after a full scan; decision
 * 409's amendment of 2026-11-29). Off, every scan starts at the first block: the same rows as the
 * index order. Sharing a scan only helps concurrent scans of one table: PGlite has one connection.
 */
const SYNC_SCANS = 'off';

// Timestamps come back as Date objects from both drivers; bigint counts as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts);
  return openPglite(opts);
}

async function openPostgres(url: string, opts: DatabaseOptions): Promise<Database> {
  // Session settings go in the connection's start-up packet, so every connection has them before
  // its first query (SYNC_SCANS; the test schema's search path).
  const settings = [`-c synchronize_seqscans=${SYNC_SCANS}`, ...(opts.schema ? [`-c search_path=${opts.schema}`] : [])];
  const pool = new pg.Pool({ connectionString: url, max: 10, options: settings.join(' ') });
  // Without these listeners a PostgreSQL restart kills the process (design/stack.md): the pool's
  // covers idle clients, each client's own covers one checked out when its connection is cut
  // (the query in flight fails on its own and the pool drops the broken client).
  pool.on('error', (err) => opts.log?.('PostgreSQL pool error', err));
  pool.on('connect', (client) => client.on('error', (err) => opts.log?.('PostgreSQL connection error', err)));
  if (opts.schema) {
    const c = await pool.connect();
    try {
      await c.query(`create schema if not exists "${opts.schema.replace(/"/g, '')}"`);
    } finally {
      c.release();
    }
  }
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const hasVector = await vectorAvailable(db);
  return {
    db,
    kind: 'postgres',
    hasVector,
    ...(opts.schema ? { schema: opts.schema } : {}),
    // Channels are the database's, not a schema's: every schema's processes hear them.
    listen: (channel, on) => listenPostgres(url, channel, on),
    hearOwnWrites: (channel, notify) => hearOnEveryConnection(pool, channel, notify),
    close: () => db.destroy(),
  };
}

/**
 * PGlite keeps PostgreSQL's default max_wal_size of 1 GB and has no checkpointer process: the WAL
 * grew to 1.1 GB while 26 MB of knowledge was ingested (issue 21). PGlite does not checkpoint by
 * itself; the server's WAL keeper and the knowledge worker run CHECKPOINT when the WAL grew
 * (db/wal.ts), and these settings make PostgreSQL then keep few recycled segments (decision 406).
 * wal_init_zero off: a new 16 MB WAL segment is not written full of zeros first. PGlite did that on
 * its one thread, inside whichever statement crossed into the segment: 100-500 ms during which no
 * request was answered (transcript batches, decision 615's amendment). PGlite runs with fsync off,
 * so the zeros bought no durability; a full disk fails the write either way.
 */
const PGLITE_SETTINGS = ['max_wal_size=64MB', 'min_wal_size=32MB', 'wal_init_zero=off', `synchronize_seqscans=${SYNC_SCANS}`];

/** PostgreSQL's type id of bytea. */
const BYTEA = 17;

/**
 * bytea through Node's own hex codec. PGlite's built-in ones map every byte to a string
 * (`Array.from(bytes).map(toString(16)).join('')`, and `parseInt` per byte pair): a 20 MB upload
 * went into the database at 0.7 MB/s and came out at 1.1 MB/s with 100 MB of garbage on the
 * heap (decision 015). The wire form (`\x` and hex digits) is the same.
 */
const BYTEA_CODEC = {
  parsers: { [BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex') },
  serializers: {
    [BYTEA]: (value: unknown) => {
      if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
    },
  },
};

async function openPglite(opts: DatabaseOptions): Promise<Database> {
  let dataDir: string | undefined;
  if (opts.dataDir) {
    dataDir = join(opts.dataDir, 'pg');
    mkdirSync(dataDir, { recursive: true });
  }
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    extensions: PGLITE_EXTENSIONS,
    ...BYTEA_CODEC,
  });
  const dialect = new PGliteDialect(pglite);
  const db = new Kysely<DB>({ dialect });
  return {
    db,
    kind: 'pglite',
    hasVector: true,
    gate: dialect.gate,
    dump: async () => {
      const release = await dialect.gate.acquire(false);
      try {
        return await pglite.dumpDataDir('none');
      } finally {
        release();
      }
    },
    guardWrites: (blocked) => {
      dialect.writesBlocked = blocked;
    },
    listen: (channel, on) => listenPglite(pglite, dialect.gate, channel, on),
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

async function vectorAvailable(db: Kysely<DB>): Promise<boolean> {
  const res = await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'vector'`.execute(db);
  return (res.rows[0]?.n ?? 0) > 0;
}
