// kill -9 during knowledge ingestion (issue 34 item 5, decision 411): the real server process
// (src/main.ts) is killed while it reads a page from a loopback website that holds its answer
// (answered once the process is gone); then another customer adds a "poison" page (never answered:
// the test kills whichever process reads it, as a document that brings its reader down every time
// would). The in-flight page must be taken over and ready well within its
// 5-minute lease (before: it stayed `processing` for the whole lease), by a restarted process on
// PGlite and by a surviving second process on PostgreSQL; the poison page must end `failed` with
// its message after 3 crashes, counted in its row, without being read a fourth time.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { SubscriptionType } from '@parla/shared/plans';
import { openDatabase, type Database } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { hashPassword } from '../../src/lib/passwords';
import { CRASHED_TOO_OFTEN, INGEST_LEASE_MS, INGEST_MAX_CRASHES } from '../../src/modules/knowledge/knowledge.worker';
import { RUN_TS } from '../run-ts';

const DB_URL = process.env.TEST_DATABASE_URL;
const APP_KEY = 'ingest-crash-app-key-0123456789';
const SECRET_KEY = 'ingest-crash-secret-key-0123456789-0123456789';
const PASSWORD = 'ingest crash password';
const SERVER_ROOT = resolve(import.meta.dirname, '../..');
/** The in-flight page must be ready this long after its takeover could start: a third of its lease
 *  (a fifth was missed twice in CI on PostgreSQL under load, where the survivor waits three missed
 *  heartbeats, then polls, then starts an extraction child; 11 s on this machine when quiet). */
const TAKEN_OVER_WITHIN_MS = INGEST_LEASE_MS / 3;

const dataDir = mkdtempSync(join(tmpdir(), 'parla-ingest-crash-'));
const schema = `ingest_crash_${randomBytes(4).toString('hex')}`;
const procs: ChildProcess[] = [];
/** How long each start took until /api/health answered (printed: the takeover waits for it). */
const boots: number[] = [];
let database: Database | null = null;
let site: Server | null = null;

afterAll(async () => {
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  site?.closeAllConnections();
  site?.close();
  if (database && DB_URL) await sql.raw(`drop schema if exists "${schema}" cascade`).execute(database.db);
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 90_000,
  why: () => Promise<string> = async () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} ${await why().catch(String)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Proc {
  child: ChildProcess;
  url: string;
  /** What the process printed (its log at warn and above). */
  output(): string;
}

async function start(sitePort: number): Promise<Proc> {
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_KEY,
    SECRET_KEY,
    ADMIN_EMAIL: 'ingest-crash-admin@example.com',
    ADMIN_PASSWORD: 'ingest crash admin password',
    LOG_LEVEL: 'warn',
    OUTBOUND_ALLOW: `127.0.0.1:${sitePort}`,
  };
  if (DB_URL) {
    const u = new URL(DB_URL);
    u.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = u.toString();
  }
  const child = spawn(process.execPath, [RUN_TS, 'src/main.ts'], { cwd: SERVER_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let out = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  child.stdout!.on('data', (d) => (out = (out + String(d)).slice(-20_000)));
  procs.push(child);
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  await until(
    'the server to answer',
    async () => {
      if (child.exitCode !== null) throw new Error(`the server did not start: ${stderr.slice(-2000)}`);
      return (await fetch(`${url}/api/health`)).status === 200;
    },
    120_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}: ${stderr.slice(-2000)}`);
  });
  boots.push(Date.now() - started);
  return { child, url, output: () => out + stderr.slice(-2000) };
}

async function kill(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const gone = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGKILL');
  await gone;
}

async function seed(emails: string[]): Promise<void> {
  database = await openDatabase(DB_URL ? { databaseUrl: DB_URL, schema } : { dataDir });
  await migrate(database.db, DB_URL ? schema : undefined);
  const now = new Date();
  const hash = await hashPassword(PASSWORD);
  await database.db
    .insertInto('users')
    .values(
      emails.map((email) => ({
        id: randomUUID(),
        email,
        password_hash: hash,
        first_name: 'Ingest',
        last_name: 'Crash',
        email_verified_at: now,
        subscription_type: SubscriptionType.ENTERPRISE,
        subscribed_since: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  // PGlite's data directory is the server's alone from now on.
  if (!DB_URL) {
    await database.close();
    database = null;
  }
}

/** The knowledge API as one customer, through whichever process is given. */
function customer(email: string) {
  // One sign-in per server process (its base URL): polling every 100 ms with a sign-in each would
  // meet the sign-in rate limit (AUTH_RATE_LIMIT_PER_MINUTE) and answer 429 instead of the items.
  const tokens = new Map<string, Promise<string>>();
  const jwtOf = (base: string) => {
    let token = tokens.get(base);
    if (!token) {
      token = signInAt(base);
      token.catch(() => tokens.delete(base));
      tokens.set(base, token);
    }
    return token;
  };
  const signInAt = async (base: string) => {
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { authorization: `Bearer ${APP_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    // A refused step throws, so the token is not kept and the next poll signs in again (CI once
    // kept "Bearer undefined" from a sign-in refused by a process just started, under load 12,
    // and polled with it until the deadline).
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${await login.text()}`);
    const session = `Bearer ${APP_KEY} ${((await login.json()) as { sessionId: string }).sessionId}`;
    const jwt = await fetch(`${base}/api/token/jwt`, { headers: { authorization: session } });
    if (jwt.status !== 200) throw new Error(`/api/token/jwt answered ${jwt.status}: ${await jwt.text()}`);
    return `Bearer ${((await jwt.json()) as { jwtToken: string }).jwtToken}`;
  };
  return {
    async post(base: string, path: string, body: unknown): Promise<string> {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: await jwtOf(base), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text}`);
      return (JSON.parse(text) as { id: string }).id;
    },
    async item(base: string, collection: string, id: string) {
      const res = await fetch(`${base}/kb/v1/collections/${collection}/items`, { headers: { authorization: await jwtOf(base) } });
      if (res.status !== 200) throw new Error(`the items of ${collection} answered ${res.status}: ${await res.text()}`);
      const items = (await res.json()) as { id: string; status: string; fail_reason: string | null }[];
      return items.find((i) => i.id === id);
    },
  };
}

describe('kill -9 during knowledge ingestion', () => {
  it(`takes over the item in flight at once, and fails a poison item after ${INGEST_MAX_CRASHES} crashes`, async () => {
    // The website: /slow is held until the first process is killed, /poison is never answered.
    const requests = new Map<string, number>();
    let holdSlow = true;
    site = createHttpServer((req, res) => {
      const path = req.url ?? '/';
      requests.set(path, (requests.get(path) ?? 0) + 1);
      if (path === '/poison' || (path === '/slow' && holdSlow)) return; // closed when its reader dies
      if (path !== '/slow') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('The crashed shop opens at nine and closes at five.');
    });
    await new Promise<void>((r) => site!.listen(0, '127.0.0.1', () => r()));
    const sitePort = (site.address() as AddressInfo).port;
    const page = (path: string) => `http://127.0.0.1:${sitePort}${path}`;
    const seen = (path: string) => requests.get(path) ?? 0;

    await seed(['slow@ingest-crash.test', 'poison@ingest-crash.test']);
    const a = customer('slow@ingest-crash.test');
    const b = customer('poison@ingest-crash.test');
    let p = await start(sitePort);
    const colA = await a.post(p.url, '/kb/v1/collections', { name: 'Shop', language: 'en' });
    const colB = await b.post(p.url, '/kb/v1/collections', { name: 'Poison' });
    const slow = await a.post(p.url, `/kb/v1/collections/${colA}/items`, {
      name: 'Hours',
      knowledge_type: { url: { url: page('/slow') } },
    });
    await until('the page to be read', async () => seen('/slow') >= 1);
    expect((await a.item(p.url, colA, slow))?.status).toBe('processing');

    // PostgreSQL: a second process is already running and survives; PGlite: one process, restarted.
    const survivor = DB_URL ? await start(sitePort) : null;
    holdSlow = false;
    const killedAt = Date.now();
    await kill(p);
    p = survivor ?? (await start(sitePort));
    // From the kill when a survivor takes over; from the restart's first answer on PGlite (the
    // start itself takes 8-40 s on a loaded 2-core host, and is not what the lease delayed).
    const from = survivor ? killedAt : Date.now();
    const ready = await until(
      'the page in flight to be ready',
      async () => ((await a.item(p.url, colA, slow))?.status === 'ready' ? Date.now() - from : undefined),
      TAKEN_OVER_WITHIN_MS,
      // What the item and the surviving process said, when it is not ready in time.
      async () =>
        `item ${JSON.stringify(await a.item(p.url, colA, slow))}; /slow asked ${seen('/slow')} times; log ${p.output().slice(-1500)}`,
    );
    console.log(
      `[ingestion-crash] the page in flight was ready ${(ready / 1000).toFixed(1)} s after ${survivor ? 'kill -9 (a second process survived)' : 'the restarted process answered'}, ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill (lease ${INGEST_LEASE_MS / 1000} s)`,
    );

    // The poison page brings down every process that reads it.
    const poison = await b.post(p.url, `/kb/v1/collections/${colB}/items`, {
      name: 'Poison',
      knowledge_type: { url: { url: page('/poison') } },
    });
    for (let crash = 1; crash <= INGEST_MAX_CRASHES; crash++) {
      await until(`the poison page to be read again (${crash})`, async () => seen('/poison') >= crash);
      await kill(p);
      p = await start(sitePort);
    }
    const failed = await until('the poison item to fail', async () => {
      const item = await b.item(p.url, colB, poison);
      return item?.status === 'failed' ? item : undefined;
    });
    expect(failed.fail_reason).toBe(CRASHED_TOO_OFTEN);
    expect(seen('/poison'), 'reads of the poison page').toBe(INGEST_MAX_CRASHES);
    expect((await a.item(p.url, colA, slow))?.status).toBe('ready');
    await kill(p);
    console.log(`[ingestion-crash] the server's starts took ${boots.map((b) => (b / 1000).toFixed(1)).join(', ')} s`);
  }, 600_000);
});
