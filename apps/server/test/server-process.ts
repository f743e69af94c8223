// A real Parla server process (apps/server/src/main.ts, as `npm run serve` runs it) for tests that
// stop it with a signal: on a temporary PGlite DATA_DIR, or on PostgreSQL in a schema of its own
// when TEST_DATABASE_URL is set (both runs keep their data across a restart). One verified
// customer on an unlimited plan is seeded before the first start.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { SubscriptionType } from '@parla/shared/plans';
import { openDatabase, type Database } from '../src/db/database';
import { migrate } from '../src/db/migrate';
import { hashPassword } from '../src/lib/passwords';
import { multipart } from './avatar-requests';
import { snapshotBlob } from './pglite-snapshot';
import type {} from './provided-context'; // inject('pgliteSnapshot')'s type
import { RUN_TS } from './run-ts';

const SERVER_ROOT = resolve(import.meta.dirname, '..');
export const PROCESS_APP_KEY = 'process-app-key-0123456789';
export const PROCESS_SECRET_KEY = 'process-secret-key-0123456789-0123456789-abc';
const EMAIL = 'process@example.com';
const PASSWORD = 'process test password';
/** The seeded customer, for tests that sign in themselves (and read the answer, 507 included). */
export const PROCESS_CUSTOMER = { email: EMAIL, password: PASSWORD } as const;

export interface ServerProcess {
  proc: ChildProcess;
  url: string;
  host: string;
  /** Everything the process wrote to stderr and stdout. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

export interface ServerHome {
  /** The DATA_DIR the processes start on (unless `start` is given another). */
  dataDir: string;
  /** Opens the database the processes use (PGlite: only while no process runs). */
  open(): Promise<Database>;
  start(env?: Record<string, string>): Promise<ServerProcess>;
  /** The seeded customer's session header. */
  login(url: string): Promise<Record<string, string>>;
  remove(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A data directory (and PostgreSQL schema) with the seeded customer; `dataDir` where the test
 *  wants it (a small file system of its own), else a new temporary one. */
export async function serverHome(opts: { dataDir?: string } = {}): Promise<ServerHome> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'parla-process-'));
  mkdirSync(dataDir, { recursive: true });
  const pgUrl = process.env.TEST_DATABASE_URL;
  const schema = `proc_${randomBytes(4).toString('hex')}`;
  const open = () => openDatabase(pgUrl ? { databaseUrl: pgUrl, schema } : { dataDir });
  // PGlite starts from the run's migrated snapshot (test/pglite-snapshot.ts): seconds, not tens.
  const snapshot = pgUrl ? '' : inject('pgliteSnapshot');
  const setup = await (snapshot ? openDatabase({ dataDir, loadDataDir: snapshotBlob(snapshot) }) : open());
  await migrate(setup.db, setup.schema);
  const now = new Date();
  await setup.db
    .insertInto('users')
    .values({
      id: randomUUID(),
      email: EMAIL,
      password_hash: await hashPassword(PASSWORD),
      first_name: 'Process',
      last_name: 'Test',
      company_name: null,
      mobile_number: null,
      email_verified_at: now,
      subscription_type: SubscriptionType.ENTERPRISE,
      requested_sub_type: null,
      subscribed_since: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await setup.close();
  const databaseUrl = () => {
    const u = new URL(pgUrl!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    return u.toString();
  };
  const running = new Set<ChildProcess>();

  // The port is free when picked and taken seconds later, by then another process may hold it
  // (CI runs hundreds of connections from the same range): a start that lost it tries another.
  const start = async (env: Record<string, string> = {}): Promise<ServerProcess> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await startOnce(env);
      } catch (err) {
        if (attempt >= 3 || !String(err).includes('EADDRINUSE')) throw err;
      }
    }
  };

  const startOnce = async (env: Record<string, string>): Promise<ServerProcess> => {
    const port = await freePort();
    const proc = spawn(process.execPath, [RUN_TS, 'src/main.ts'], {
      cwd: SERVER_ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        ...(pgUrl ? { DATABASE_URL: databaseUrl() } : {}),
        APP_KEY: PROCESS_APP_KEY,
        SECRET_KEY: PROCESS_SECRET_KEY,
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(proc);
    let output = '';
    proc.stdout!.on('data', (d) => (output += String(d)));
    proc.stderr!.on('data', (d) => (output += String(d)));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((r) =>
      proc.once('exit', (code, signal) => {
        running.delete(proc);
        r({ code, signal, at: performance.now() });
      }),
    );
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`the server did not start: ${output.slice(-2000)}`);
      try {
        if ((await fetch(`${url}/api/health`)).status === 200)
          return { proc, url, host: `127.0.0.1:${port}`, output: () => output, exited };
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the server did not answer within 90 s: ${output.slice(-2000)}`);
  };

  const login = async (url: string) => {
    const res = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PROCESS_APP_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    if (res.status !== 200) throw new Error(`login failed: ${await res.text()}`);
    return { authorization: `Bearer ${PROCESS_APP_KEY} ${((await res.json()) as { sessionId: string }).sessionId}` };
  };

  const remove = async () => {
    for (const p of running) p.kill('SIGKILL');
    if (pgUrl) {
      const db = await open();
      await sql.raw(`drop schema if exists "${schema}" cascade`).execute(db.db);
      await db.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { dataDir, open, start, login, remove };
}

/** Saves an avatar of the catalogue's first 2D look with `avatarJson` (engine settings...); its id and token. */
export async function saveAvatar(
  url: string,
  session: Record<string, string>,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; token: string }> {
  const catalogue = (await (await fetch(`${url}/api/catalogue/avatars`)).json()) as { avatars: { id: string; type: string }[] };
  const look = catalogue.avatars.find((x) => x.type === '2d')!;
  const body = multipart([
    { name: 'json', value: JSON.stringify({ name: 'Shutdown avatar', dhType: look.type, appearanceId: look.id, ...extra }) },
  ]);
  const res = await fetch(`${url}/api/avatar_v2/add`, {
    method: 'POST',
    headers: { ...session, ...body.headers },
    body: new Uint8Array(body.payload),
  });
  if (res.status !== 200) throw new Error(`avatar save answered ${res.status}: ${await res.text()}`);
  const agent = ((await res.json()) as { agent: { id: string; token?: string } }).agent;
  return { id: agent.id, token: agent.token ?? '' };
}
