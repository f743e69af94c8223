// The scale test (issue 16, decision 630): two API processes and one pipeline node over one
// PostgreSQL, as an operator runs them behind a load balancer. Conversations open through both,
// callbacks are posted to the process that does not hold them, both list every online user, and
// kill -9 of the node and of a holding process are survived. Runs on PostgreSQL only (PGlite is one
// process): `.ci/run`'s PostgreSQL pass runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { SubscriptionType } from '@parla/shared/plans';
import { openDatabase, type Database } from '../../src/db/database';
import { hashPassword } from '../../src/lib/passwords';
import { SecretBox } from '../../src/lib/secrets';
import { multipart } from '../avatar-requests';
import { CallbackTokens } from '../../src/runtime/delivery/callback-token';
import { closeAll, connect } from '../conversation-client';
import { RUN_TS } from '../run-ts';
import { DEFAULT_WAKE_UP_MESSAGE as GREETING } from '@parla/shared/schemas/avatar';

const DB_URL = process.env.TEST_DATABASE_URL;
const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');
const SECRET_KEY = `scale-secret-${randomBytes(16).toString('hex')}`;
const APP_KEY = 'scale-app-key-0123456789';
const NODE_SECRET = 'scale-node-secret-0123456789';
const PASSWORD = 'scale password 1';
const schema = `scale_${randomBytes(4).toString('hex')}`;

interface Proc {
  name: string;
  child: ChildProcess;
  host: string;
  output: string[];
  exited: Promise<number | null>;
}

let database: Database;
const procs: Proc[] = [];
let a: Proc;
let b: Proc;
let adminAuth: string;
let avatar: { id: string; token: string };

/** Polls until `check` holds (beforeAll cannot use expect.poll). */
async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${what}:\n${procs.map((p) => `${p.name}: ${p.output.join('').slice(-2000)}`).join('\n')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function run(name: string, script: string, args: string[], env: Record<string, string>, host = ''): Proc {
  const child = spawn(process.execPath, [RUN_TS, join(SRC, script), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (d: Buffer) => output.push(String(d)));
  child.stderr!.on('data', (d: Buffer) => output.push(String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const p = { name, child, host, output, exited };
  procs.push(p);
  return p;
}

async function startApi(name: string): Promise<Proc> {
  const port = await freePort();
  const url = new URL(DB_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const p = run(
    name,
    'main.ts',
    [],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: `/tmp/parla-scale-${name}-${randomBytes(4).toString('hex')}`,
      DATABASE_URL: url.toString(),
      SECRET_KEY,
      APP_KEY,
      NODE_SECRET,
      LOG_LEVEL: 'warn',
      ALLOW_REGISTRATION: 'false',
    },
    `127.0.0.1:${port}`,
  );
  await waitFor(`${name} to answer`, async () => (await fetch(`http://${p.host}/api/health`)).status === 200);
  return p;
}

const api = async (p: Proc, path: string, body: unknown, auth = adminAuth) => {
  const res = await fetch(`http://${p.host}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};
const online = async (p: Proc) =>
  ((await api(p, '/api/list_online_users', { mode: 'get' })).json.onlineUsers as { sessionId: string }[]).map((u) => u.sessionId);
const vps = async (p: Proc) => {
  const res = await fetch(`http://${p.host}/api/list_vps`, { headers: { authorization: adminAuth } });
  return ((await res.json()) as { vpsList: { name: string; status: string; id: string }[] }).vpsList;
};

async function seedAccounts(): Promise<void> {
  const now = new Date();
  const hash = await hashPassword(PASSWORD);
  const user = (email: string, type: string) => ({
    id: randomUUID(),
    email,
    password_hash: hash,
    first_name: 'Scale',
    last_name: type,
    email_verified_at: now,
    subscription_type: SubscriptionType.ENTERPRISE,
    subscribed_since: now,
    user_type: type,
    created_at: now,
    updated_at: now,
  });
  await database.db
    .insertInto('users')
    .values([user('admin@scale.test', 'ADMIN'), user('customer@scale.test', 'CUSTOMER')])
    .execute();
}

async function login(p: Proc, email: string): Promise<string> {
  const res = await api(p, '/api/login', { email, password: PASSWORD }, `Bearer ${APP_KEY}`);
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.json)}`);
  return `Bearer ${APP_KEY} ${res.json.sessionId as string}`;
}

const tokens = new CallbackTokens(SecretBox.derive(SECRET_KEY, 'knowledge-jwt'));
const push = (p: Proc, sessionId: string, message: string) =>
  fetch(`http://${p.host}/api/conversation/callback/${sessionId}?token=${tokens.tokenOf(sessionId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });

describe.skipIf(!DB_URL)('two API processes and a pipeline node over one PostgreSQL', () => {
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: DB_URL!, schema });
    a = await startApi('api-a');
    b = await startApi('api-b');
    await seedAccounts();
    adminAuth = await login(b, 'admin@scale.test');
    const customer = await login(a, 'customer@scale.test');
    const catalogue = (await (await fetch(`http://${a.host}/api/catalogue/avatars`)).json()) as { avatars: { id: string; type: string }[] };
    const look = catalogue.avatars.find((x) => x.type === '2d')!;
    const body = multipart([{ name: 'json', value: JSON.stringify({ name: 'Scale avatar', dhType: look.type, appearanceId: look.id }) }]);
    const saved = await fetch(`http://${a.host}/api/avatar_v2/add`, {
      method: 'POST',
      headers: { ...body.headers, authorization: customer },
      body: new Uint8Array(body.payload),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    avatar = await database.db.selectFrom('avatars').select(['id', 'token']).executeTakeFirstOrThrow();
    run('node', 'node-main.ts', ['--server', `http://${a.host}`, '--name', 'scale-node', '--capacity', '5'], { NODE_SECRET });
    await waitFor('the node to register', async () => (await vps(b)).find((n) => n.name === 'scale-node')?.status === 'AVAILABLE');
  }, 180_000);

  afterEach(async () => {
    await closeAll();
  });

  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    if (database) {
      await sql.raw(`drop schema if exists "${schema}" cascade`).execute(database.db);
      await database.close();
    }
  });

  const open = async (p: Proc, device: string) => {
    const c = await connect(p.host, { avatarId: avatar.id, token: avatar.token }, { type: 'hello', deviceId: device, userName: device });
    const ready = await c.next('ready', undefined, 30_000);
    return { c, sessionId: ready.sessionId };
  };

  it('opens conversations through both processes, lists them from both, and delivers callbacks posted to the other process', async () => {
    const onA = await open(a, 'device-a');
    const onB = await open(b, 'device-b');
    for (const p of [a, b]) expect(await online(p)).toEqual(expect.arrayContaining([onA.sessionId, onB.sessionId]));
    expect((await push(b, onA.sessionId, 'pushed to B for A')).status).toBe(200);
    expect((await onA.c.next('assistant_done', (m) => m.text !== GREETING)).text).toBe('pushed to B for A');
    expect((await push(a, onB.sessionId, 'pushed to A for B')).status).toBe(200);
    expect((await onB.c.next('assistant_done', (m) => m.text !== GREETING)).text).toBe('pushed to A for B');
    expect((await push(a, randomUUID(), 'nobody')).status).toBe(404);
  }, 60_000);

  it('kill -9 of the pipeline node: its conversation is told (node_lost, 4112), is billed to its end once, and reconnects', async () => {
    const held = await open(a, 'device-node');
    const node = (await vps(a)).find((n) => n.name === 'scale-node')!;
    const row = await database.db.selectFrom('conversations').select('node_id').where('id', '=', held.sessionId).executeTakeFirstOrThrow();
    expect(row.node_id).toBe(node.id);
    procs.find((p) => p.name === 'node')!.child.kill('SIGKILL');
    expect((await held.c.next('bye', undefined, 30_000)).reason).toBe('node_lost');
    expect((await held.c.closed).code).toBe(CLOSE_CODES.nodeLost);
    const ended = await database.db.selectFrom('conversations').selectAll().where('id', '=', held.sessionId).execute();
    expect(ended).toHaveLength(1);
    expect(ended[0]!.end_reason).toBe('node_lost');
    expect(ended[0]!.ended_at).not.toBeNull();
    for (const p of [a, b]) expect((await vps(p)).find((n) => n.name === 'scale-node')!.status).toBe('OFFLINE');
    const again = await open(a, 'device-node');
    expect(again.sessionId).not.toBe(held.sessionId);
  }, 60_000);

  it('kill -9 of the process holding a conversation: the player sees the socket drop, reconnects to the other process, and the online lists clear', async () => {
    const held = await open(b, 'device-killed');
    // One tick has accounted it (the usage up to the failure is what its last heartbeat says).
    await expect
      .poll(
        async () =>
          (
            await database.db.selectFrom('conversations').select('last_seen_at').where('id', '=', held.sessionId).executeTakeFirstOrThrow()
          ).last_seen_at.getTime(),
        { timeout: 15_000, interval: 250 },
      )
      .toBeGreaterThan(0);
    b.child.kill('SIGKILL');
    expect((await held.c.closed).code).toBe(1006);
    const again = await open(a, 'device-killed');
    expect(again.sessionId).not.toBe(held.sessionId);
    await expect.poll(async () => (await online(a)).includes(held.sessionId), { timeout: 30_000, interval: 250 }).toBe(false);
    const rows = await database.db.selectFrom('conversations').selectAll().where('id', '=', held.sessionId).execute();
    expect(rows).toHaveLength(1);
    // Billed up to its last heartbeat, once: ended there, not later, not twice.
    expect(rows[0]).toMatchObject({ end_reason: 'server_lost', ended_at: rows[0]!.last_seen_at });
    expect((await online(a)).includes(again.sessionId)).toBe(true);
  }, 90_000);
});
