// A real server for API tests: the Fastify app over PGlite (in memory, migrated), or over a
// schema of its own in the PostgreSQL named by TEST_DATABASE_URL; either empty, a closed
// server's being emptied for the next (test/database-pool.ts). Log lines are captured so tests
// can search them, and every test file's server watches for leaked secrets: each value the
// server encrypts (ctx.secrets.encrypt: provider keys, OAuth client secrets, private keys) and
// every planted canary (canarySecret()) must never appear in a response body or a log line;
// close() fails the file when one did. The registered routes are listed for the route matrix.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import pg from 'pg';
import { build } from '../src/app';
import { parseConfig } from '../src/config';
import type { AppContext } from '../src/context';
import { privateResolver } from './ssrf-vectors';
import { inject } from 'vitest';
import { openDatabase } from '../src/db/database';
import { giveDatabase, takeDatabase } from './database-pool';
import type {} from './provided-context'; // inject('pgliteSnapshot')'s type

export const TEST_APP_KEY = 'test-app-key-0123456789';
export const TEST_SECRET_KEY = 'test-secret-key-0123456789-0123456789-abcdef';

/** A route as the server registered it (HEAD twins of GET routes left out). */
export interface RegisteredRoute {
  method: string;
  url: string;
  auth: string | undefined;
  websocket: boolean;
  schema: RouteOptions['schema'];
}

const CANARY_PREFIX = 'CANARY-SECRET-';

/** A recognisable secret to plant in a secret field: it must never come back in full. */
export function canarySecret(label: string): string {
  return `${CANARY_PREFIX}${label.replace(/[^A-Za-z0-9]/g, '')}-${randomBytes(12).toString('hex')}`;
}

/** Plaintexts worth watching: long enough and varied enough not to match by chance. */
function watchable(plain: string): boolean {
  return plain.length >= 12 && new Set(plain).size >= 6;
}

/** The forms a secret takes in JSON text (responses and log lines are JSON). */
function forms(plain: string): string[] {
  const escaped = JSON.stringify(plain).slice(1, -1);
  return escaped === plain ? [plain] : [plain, escaped];
}

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  logs: string[];
  /** Every route the server registered. */
  routes: RegisteredRoute[];
  /** Secrets seen in a response or a log line so far (close() fails when any). */
  leaks(): string[];
  /** How many distinct secrets the server was given to encrypt (watched for leaks). */
  watchedSecrets(): number;
  /** Listens on a loopback port (for tests that need real sockets); returns the base URL. */
  listen(): Promise<string>;
  /** Moves the server's clock (ms). */
  advance(ms: number): void;
  inject(opts: InjectOptions & { token?: string | null; appKey?: string | null }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** `sameDatabaseAs`: a second server process over another server's database (decision 630's
 *  cross-process tests); it neither migrates nor closes that database. With `ownConnections` (on
 *  PostgreSQL) it opens connections of its own to that schema, as another process would, and
 *  closes them (decision 017's cross-process tests); on PGlite, one process per data directory,
 *  it shares the instance. */
export async function createTestServer(
  env: Record<string, string> = {},
  opts: { sameDatabaseAs?: TestServer; ownConnections?: boolean } = {},
): Promise<TestServer> {
  const config = parseConfig({
    APP_KEY: TEST_APP_KEY,
    SECRET_KEY: TEST_SECRET_KEY,
    DATA_DIR: `/tmp/parla-test-${randomBytes(6).toString('hex')}`,
    LOG_LEVEL: 'info',
    PUBLIC_URL: 'http://parla.test',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    // A mail that failed is tried again within milliseconds, not half a minute (decision 012).
    MAIL_RETRY_BASE_MS: '20',
    ...env,
  });
  const url = process.env.TEST_DATABASE_URL;
  const other = opts.sameDatabaseAs?.ctx.database;
  const own = Boolean(other && url && opts.ownConnections && other.kind === 'postgres');
  const shared = other && !own ? other : undefined;
  // A migrated, empty database: a closed server's, emptied, or a new one (test/database-pool.ts);
  // PGlite starts from the run's migrated snapshot (test/global-setup.ts).
  const database =
    shared ??
    (own
      ? await openDatabase({ databaseUrl: url!, ...(other!.schema ? { schema: other!.schema } : {}) })
      : await takeDatabase(url, url ? '' : inject('pgliteSnapshot')));

  const logs: string[] = [];
  const leaks = new Set<string>();
  const watched = new Map<string, string[]>();
  const findLeaks = (text: string, where: string) => {
    if (text.includes(CANARY_PREFIX)) leaks.add(`${where}: ${text.slice(text.indexOf(CANARY_PREFIX), text.indexOf(CANARY_PREFIX) + 60)}`);
    for (const [plain, spelt] of watched)
      if (spelt.some((f) => text.includes(f))) leaks.add(`${where}: a secret ending ${plain.slice(-4)}`);
  };
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      const line = String(chunk);
      logs.push(line);
      findLeaks(line, 'log line');
      cb();
    },
  });
  const routes: RegisteredRoute[] = [];
  let offset = 0;
  const { app, ctx } = await build({
    config,
    database,
    secretKey: TEST_SECRET_KEY,
    logStream,
    serveWeb: false,
    now: () => new Date(Date.now() + offset),
    // No test reaches a real DNS server: names resolve only through the test resolver.
    outboundResolver: privateResolver,
    onRoute: (r) => {
      for (const method of [r.method].flat()) {
        if (method === 'HEAD' && [r.method].flat().length === 1 && routes.some((x) => x.url === r.url && x.method === 'GET')) continue;
        routes.push({
          method,
          url: r.url,
          auth: r.config?.auth,
          websocket: Boolean((r as { websocket?: boolean }).websocket),
          schema: r.schema,
        });
      }
    },
  });
  // The mail outbox's sender runs as in server.ts: mails reach the SMTP capture within moments.
  ctx.mailer.start();
  const encrypt = ctx.secrets.encrypt.bind(ctx.secrets);
  ctx.secrets.encrypt = (plain: string) => {
    if (watchable(plain)) watched.set(plain, forms(plain));
    return encrypt(plain);
  };
  app.addHook('onSend', async (request, _reply, payload) => {
    if (typeof payload === 'string' || Buffer.isBuffer(payload))
      findLeaks(String(payload), `${request.method} ${request.url.split('?')[0]}`);
    return payload;
  });
  await app.ready();

  return {
    app,
    ctx,
    logs,
    routes,
    leaks: () => [...leaks],
    watchedSecrets: () => watched.size,
    listen: async () => {
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      return address;
    },
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
      if (own) await database.close();
      else if (!shared) await giveDatabase(database);
      // The data directory this harness made goes with the server (one given by the test is its own).
      if (!env.DATA_DIR) rmSync(config.DATA_DIR, { recursive: true, force: true });
      for (const line of logs) findLeaks(line, 'log line');
      if (leaks.size) throw new Error(`Secrets leaked in responses or logs:\n  ${[...leaks].join('\n  ')}`);
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
