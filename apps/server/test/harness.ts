// A real server for API tests: the Fastify app over PGlite (in memory, migrated), or over a
// fresh schema of the PostgreSQL named by TEST_DATABASE_URL. Log lines are captured so tests
// can search them (secrets must never appear).
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { build } from '../src/app';
import { parseConfig } from '../src/config';
import type { AppContext } from '../src/context';
import { openDatabase } from '../src/db/database';
import { migrate } from '../src/db/migrate';

export const TEST_APP_KEY = 'test-app-key-0123456789';
export const TEST_SECRET_KEY = 'test-secret-key-0123456789-0123456789-abcdef';

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  logs: string[];
  /** Moves the server's clock (ms). */
  advance(ms: number): void;
  inject(opts: InjectOptions & { token?: string | null; appKey?: string | null }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const config = parseConfig({
    APP_KEY: TEST_APP_KEY,
    SECRET_KEY: TEST_SECRET_KEY,
    DATA_DIR: `/tmp/parla-test-${randomBytes(6).toString('hex')}`,
    LOG_LEVEL: 'info',
    PUBLIC_URL: 'http://parla.test',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    ...env,
  });
  const url = process.env.TEST_DATABASE_URL;
  const schema = url ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const database = await openDatabase(url ? { databaseUrl: url, schema: schema! } : {});
  await migrate(database.db, database.schema);

  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  let offset = 0;
  const { app, ctx } = await build({
    config,
    database,
    secretKey: TEST_SECRET_KEY,
    logStream,
    serveWeb: false,
    now: () => new Date(Date.now() + offset),
  });
  await app.ready();

  return {
    app,
    ctx,
    logs,
    advance: (ms) => {
      offset += ms;
    },
    inject: ({ token, appKey, headers, ...rest }) => {
      const key = appKey === undefined ? TEST_APP_KEY : appKey;
      const auth = key === null ? undefined : token ? `Bearer ${key} ${token}` : `Bearer ${key}`;
      return app.inject({ ...rest, headers: { ...(auth ? { authorization: auth } : {}), ...headers } });
    },
    close: async () => {
      await app.close();
      if (url && schema) await sql.raw(`drop schema if exists "${schema}" cascade`).execute(database.db);
      await database.close();
    },
  };
}

/** Drops schemas left by killed runs (PostgreSQL only). */
export async function dropStaleSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ nspname: string }>(`select nspname from pg_namespace where nspname like 't\\_%'`);
    for (const r of res.rows) await client.query(`drop schema if exists "${r.nspname}" cascade`);
  } finally {
    await client.end();
  }
}
