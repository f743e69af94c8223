// Crash: the real server process (apps/server/src/main.ts on a temporary DATA_DIR with PGlite) is
// killed with SIGKILL at random moments while avatar saves (with a background upload), avatar
// updates that replace their media, and knowledge uploads are in flight; then started again.
// After every restart: every save that was answered before the kill is still there, no row
// points at missing bytes, every stored file is served whole (its SHA-256 matches), and at the
// end the sweep removes the crash leftovers (upload temp files).
// 5 lives (about 20 interrupted operations) by default; ATTACK_FULL=1 runs 20 lives.
// PGlite only: the PostgreSQL pass has its own fault test (a database restart, pg-restart.test.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SubscriptionType } from '@parla/shared/plans';
import { openDatabase } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { FileStore } from '../../src/lib/file-store';
import { hashPassword } from '../../src/lib/passwords';
import { fileOf, multipart, UPLOAD_REF } from '../avatar-requests';
import { multipart as kbMultipart } from '../knowledge-requests';
import { RUN_TS } from '../run-ts';

const FULL = Boolean(process.env.ATTACK_FULL);
const LIVES = FULL ? 20 : 5;
const OPS_PER_LIFE = 4;
const APP_KEY = 'crash-app-key-0123456789';
const SECRET_KEY = 'crash-secret-key-0123456789-0123456789-abc';
const EMAIL = 'crash@example.com';
const PASSWORD = 'crash test password';
const SERVER_ROOT = resolve(import.meta.dirname, '../..');

const dataDir = mkdtempSync(join(tmpdir(), 'parla-crash-'));
let child: ChildProcess | null = null;
let exitedOnItsOwn = 0;
/** Processes this test stopped on purpose (their exit is expected). */
const stopping = new WeakSet<ChildProcess>();

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function start(): Promise<string> {
  const port = await freePort();
  const proc = spawn(process.execPath, [RUN_TS, 'src/main.ts'], {
    cwd: SERVER_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_KEY,
      SECRET_KEY,
      ADMIN_EMAIL: 'crash-admin@example.com',
      ADMIN_PASSWORD: 'crash admin password',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += String(d)));
  proc.on('exit', (code, signal) => {
    if (stopping.has(proc)) return;
    exitedOnItsOwn++;
    console.error(`server exited by itself (${code ?? signal}): ${stderr.slice(-2000)}`);
  });
  child = proc;
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`the server did not start: ${stderr.slice(-2000)}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) return url;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not answer within 90 s: ${stderr.slice(-2000)}`);
}

async function kill(): Promise<void> {
  const proc = child!;
  child = null;
  if (proc.exitCode !== null) return;
  const gone = new Promise((r) => proc.once('exit', r));
  stopping.add(proc);
  proc.kill('SIGKILL');
  await gone;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Stored {
  kind: 'avatar' | 'kb';
  id: string;
  /** The file's URL path and the bytes that must be served there. */
  path: string;
  sha256: string;
}

describe('kill -9 during uploads and saves', () => {
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    `loses nothing answered, serves no partial file and sweeps the leftovers (${LIVES} kills)`,
    async () => {
      // A verified customer on an unlimited plan, made before the first start.
      const setup = await openDatabase({ dataDir });
      await migrate(setup.db);
      const now = new Date();
      await setup.db
        .insertInto('users')
        .values({
          id: '00000000-0000-4000-8000-0000000c0001',
          email: EMAIL,
          password_hash: await hashPassword(PASSWORD),
          first_name: 'Crash',
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

      let url = await start();
      const login = await fetch(`${url}/api/login`, {
        method: 'POST',
        headers: { authorization: `Bearer ${APP_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      expect(login.status).toBe(200);
      const session = { authorization: `Bearer ${APP_KEY} ${((await login.json()) as { sessionId: string }).sessionId}` };
      const jwt = async () => ({
        authorization: `Bearer ${((await (await fetch(`${url}/api/token/jwt`, { headers: session })).json()) as { jwtToken: string }).jwtToken}`,
      });
      const catalogue = (await (await fetch(`${url}/api/catalogue/avatars`)).json()) as { avatars: { id: string; type: string }[] };
      const look = catalogue.avatars.find((a) => a.type === '2d')!;

      const answered: Stored[] = [];
      const avatars: { id: string; updated: string }[] = [];
      let interrupted = 0;
      let operations = 0;

      const saveAvatar = async (base: string, existing?: { id: string; updated: string }) => {
        const data = fileOf('png', 256 * 1024 + Math.floor(Math.random() * 3 * 1024 * 1024));
        randomBytes(1024).copy(data, 64);
        const json = {
          ...(existing ?? {}),
          name: `Crash ${operations}`,
          dhType: look.type,
          appearanceId: look.id,
          avatarJson: { panel: { Enable: true, contentURL: UPLOAD_REF.backgroundImage } },
        };
        const body = multipart([
          { name: 'json', value: JSON.stringify(json) },
          { name: 'backgroundImage', value: data, filename: 'bg.png', contentType: 'image/png' },
        ]);
        const res = await fetch(`${base}/api/avatar_v2/add`, {
          method: 'POST',
          headers: { ...session, ...body.headers },
          body: body.payload,
        });
        if (res.status !== 200) throw new Error(`avatar save answered ${res.status}: ${await res.text()}`);
        const agent = ((await res.json()) as { agent: { id: string; updated: string; avatarJson: { panel: { contentURL: string } } } })
          .agent;
        const bg = agent.avatarJson.panel.contentURL;
        const path = bg.slice(bg.indexOf('/config-files/'));
        const i = avatars.findIndex((a) => a.id === agent.id);
        if (i >= 0) avatars[i] = { id: agent.id, updated: agent.updated };
        else avatars.push({ id: agent.id, updated: agent.updated });
        // An update replaces the avatar's background: only the newest must be served.
        for (let j = answered.length - 1; j >= 0; j--)
          if (answered[j]!.kind === 'avatar' && answered[j]!.id === agent.id) answered.splice(j, 1);
        answered.push({ kind: 'avatar', id: agent.id, path, sha256: sha(data) });
      };
      const uploadKb = async (base: string, auth: Record<string, string>) => {
        const data = Buffer.from(`${'knowledge line '.repeat(64)}\n`.repeat(100 + Math.floor(Math.random() * 3000)));
        const body = kbMultipart('file', 'notes.txt', data, 'text/plain');
        const res = await fetch(`${base}/kb/v1/files`, { method: 'POST', headers: { ...auth, ...body.headers }, body: body.payload });
        if (res.status !== 200) throw new Error(`knowledge upload answered ${res.status}: ${await res.text()}`);
        const file = (await res.json()) as { url: string };
        answered.push({ kind: 'kb', id: file.url, path: file.url, sha256: sha(data) });
      };

      const check = async (base: string) => {
        const auth = await jwt();
        for (const s of answered) {
          const res = await fetch(`${base}${s.path}`, { headers: s.kind === 'kb' ? auth : {} });
          expect(res.status, `${s.kind} ${s.path} after a restart`).toBe(200);
          expect(sha(Buffer.from(await res.arrayBuffer())), `${s.path} is served whole`).toBe(s.sha256);
        }
        const list = (await (await fetch(`${base}/api/avatar/list`, { headers: session })).json()) as { agents: { id: string }[] };
        for (const a of avatars)
          expect(
            list.agents.some((x) => x.id === a.id),
            `avatar ${a.id} answered before the kill`,
          ).toBe(true);
        // Every avatar's background URL is served whole, whether or not its save was answered.
        for (const { id } of list.agents) {
          const a = (await (await fetch(`${base}/api/avatar/${id}`, { headers: session })).json()) as {
            agent: { id: string; avatarJson: { panel?: { contentURL?: string } } };
          };
          const bg = a.agent.avatarJson.panel?.contentURL;
          if (!bg?.includes('/config-files/')) continue;
          const res = await fetch(`${base}${bg.slice(bg.indexOf('/config-files/'))}`);
          expect(res.status, `${id}: its background ${bg}`).toBe(200);
        }
      };

      for (let life = 0; life < LIVES; life++) {
        const auth = await jwt();
        const ops: Promise<void>[] = [];
        for (let k = 0; k < OPS_PER_LIFE; k++) {
          operations++;
          const which = (life * OPS_PER_LIFE + k) % 3;
          const op =
            which === 0
              ? saveAvatar(url)
              : which === 1 && avatars.length
                ? saveAvatar(url, avatars[Math.floor(Math.random() * avatars.length)])
                : uploadKb(url, auth);
          ops.push(op.catch(() => void interrupted++));
        }
        await new Promise((r) => setTimeout(r, 10 + Math.random() * 400));
        await kill();
        await Promise.all(ops);
        url = await start();
        await check(url);
      }

      // A clean stop, then the database and the files compared directly.
      const gone = new Promise((r) => child!.once('exit', r));
      stopping.add(child!);
      child!.kill('SIGTERM');
      await gone;
      child = null;
      const db = await openDatabase({ dataDir });
      const store = new FileStore(dataDir);
      const rows = await db.db.selectFrom('stored_files').selectAll().execute();
      const broken: string[] = [];
      for (const r of rows) {
        // Every row's bytes are whole in the database (decision 015).
        const parts: Buffer[] = [];
        try {
          for await (const part of store.read(db.db, r.id, 0, Number(r.size_bytes) - 1)) parts.push(part);
        } catch {
          broken.push(`${r.id}: chunks missing`);
          continue;
        }
        const bytes = Buffer.concat(parts);
        if (bytes.length !== Number(r.size_bytes) || sha(bytes) !== r.sha256) broken.push(`${r.id}: partial`);
      }
      const swept = await store.sweep(Date.now() + 11 * 60 * 1000);
      // Nothing is left on disk: uploads' temp files are discarded or swept.
      const left = existsSync(store.root)
        ? readdirSync(store.root, { recursive: true, withFileTypes: true })
            .filter((e) => e.isFile())
            .map((e) => join(e.parentPath, e.name).slice(store.root.length + 1))
        : [];
      await db.close();
      console.log(
        `crash: ${LIVES} kills during ${operations} operations (${interrupted} interrupted, ${answered.length} answered and kept), ${rows.length} stored files checked, ${swept.removed.length} leftovers swept, ${exitedOnItsOwn} unexpected exits`,
      );
      expect(broken).toEqual([]);
      expect(left).toEqual([]);
      expect(exitedOnItsOwn).toBe(0);
      expect(operations).toBe(LIVES * OPS_PER_LIFE);
    },
    (LIVES * 30 + 120) * 1000,
  );
});
