// The first administrator's password never reaches the log (issue 20, finding 9). The real
// server process (src/main.ts, PGlite in a temporary DATA_DIR, no ADMIN_PASSWORD) starts once;
// no word of its output is the administrator's password (each is checked against the stored
// hash). The password is in a file in DATA_DIR that only the server's user can read, and it works.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database';
import { verifyPassword } from '../../src/lib/passwords';
import { RUN_TS } from '../run-ts';

const APP_KEY = 'admin-pw-app-key-0123456789';
const SERVER_ROOT = resolve(import.meta.dirname, '../..');
const ADMIN_EMAIL = 'first-admin@example.com';

const dataDir = mkdtempSync(join(tmpdir(), 'parla-admin-pw-'));
let child: ChildProcess | null = null;
let output = '';
let url = '';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Starts the server on a free port; a port taken between the pick and the listen (CI) is picked again. */
async function startOn(): Promise<number> {
  const port = await freePort();
  const proc = spawn(process.execPath, [RUN_TS, 'src/main.ts'], {
    cwd: SERVER_ROOT,
    // Nothing of the parent's environment but PATH and HOME: no ADMIN_PASSWORD.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_KEY,
      ADMIN_EMAIL,
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  proc.stdout!.on('data', (d) => (output += String(d)));
  proc.stderr!.on('data', (d) => (output += String(d)));
  const deadline = Date.now() + 90_000;
  while (!output.includes('Parla is running')) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start: ${output.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return port;
}

beforeAll(async () => {
  let port = 0;
  for (let attempt = 1; !port; attempt++) {
    try {
      port = await startOn();
    } catch (err) {
      if (attempt >= 3 || !String(err).includes('EADDRINUSE')) throw err;
      // A fresh first start: the administrator is made (and printed) by the first start only.
      output = '';
      rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir);
    }
  }
  url = `http://127.0.0.1:${port}`;
}, 120_000);

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(password: string): Promise<number> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${APP_KEY}` },
    body: JSON.stringify({ email: ADMIN_EMAIL, password }),
  });
  return res.status;
}

describe('first administrator', () => {
  it('keeps the generated password in a file of DATA_DIR that only its owner can read, and it signs in', async () => {
    const file = join(dataDir, 'admin-password.txt');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const password = readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(output).not.toContain(password);
    expect(await signIn(password)).toBe(200);
  }, 60_000);

  it('prints the email and the password file, and no word of the output is the administrator password', async () => {
    // The server stops, then every word a password could be (8+ characters without spaces) is
    // checked against the stored hash (signing in with each would hit the lockout after 10).
    const exited = new Promise((r) => child!.once('exit', r));
    child!.kill('SIGTERM');
    await exited;
    child = null;
    expect(output).toContain('Parla administrator created');
    expect(output).toContain(ADMIN_EMAIL);
    const words = [...new Set(output.split(/[\s"'`]+/).filter((w) => w.length >= 8 && w.length <= 256))];
    expect(words.length).toBeGreaterThan(0);
    const database = await openDatabase({ dataDir });
    try {
      const admin = await database.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', ADMIN_EMAIL)
        .executeTakeFirstOrThrow();
      const matching: string[] = [];
      for (const word of words) if (await verifyPassword(admin.password_hash, word)) matching.push(word);
      expect(matching).toEqual([]);
    } finally {
      await database.close();
    }
    expect(output).toContain(join(dataDir, 'admin-password.txt'));
  }, 120_000);
});
