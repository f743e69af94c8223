// Backup and restore of the embedded database while the server runs (issue 34 item 6, decision
// 013): a customer's knowledge file and account are backed up through the running server
// (GET /api/admin/backup, npm run backup's code), restored into a fresh DATA_DIR, and a server
// started there signs the customer in and serves the file byte for byte.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomer } from '../test/accounts';
import { createTestServer, TEST_APP_KEY, TEST_SECRET_KEY, type TestServer } from '../test/harness';
import { kbToken, multipart } from '../test/knowledge-requests';
import { backup, restore } from './backup';
import { parseConfig } from './config';
import { startServer, type RunningServer } from './server';

const dirs: string[] = [];
const temp = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `parla-${name}-`));
  dirs.push(d);
  return d;
};
let server: TestServer | undefined;
let restored: RunningServer | undefined;

afterAll(async () => {
  await restored?.close();
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('backup and restore', () => {
  it('restores a backup taken while the server runs into a fresh DATA_DIR, with its files', async () => {
    server = await createTestServer();
    const admin = await createAdmin(server);
    const customer = await createCustomer(server, 'backed-up');
    const jwt = await kbToken(server, customer);
    const data = Buffer.concat([Buffer.from('backed up notes\n'), randomBytes(2048).map((b) => 97 + (b % 26))]);
    const body = multipart('file', 'notes.txt', data, 'text/plain');
    const up = await server.inject({
      method: 'POST',
      url: '/kb/v1/files',
      appKey: null,
      headers: { authorization: `Bearer ${jwt}`, ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    const fileUrl = up.json().url as string;
    const url = await server.listen();
    const out = join(temp('backup'), 'copy');

    if (process.env.TEST_DATABASE_URL) {
      await expect(
        backup({ url, dataDir: server.ctx.config.DATA_DIR, out, appKey: TEST_APP_KEY, email: admin.email, password: admin.password }),
      ).rejects.toThrow(/pg_dump/);
      return;
    }
    const done = await backup({
      url,
      dataDir: server.ctx.config.DATA_DIR,
      out,
      appKey: TEST_APP_KEY,
      email: admin.email,
      password: admin.password,
    });
    expect(done.files).toBe(1);
    // Customers may not take a backup.
    expect((await server.inject({ method: 'GET', url: '/api/admin/backup', token: customer.token })).statusCode).toBe(403);

    const fresh = temp('restored');
    await restore(out, fresh);
    expect(existsSync(join(fresh, 'pg'))).toBe(true);
    restored = await startServer(
      parseConfig({ DATA_DIR: fresh, PORT: '0', HOST: '127.0.0.1', APP_KEY: TEST_APP_KEY, SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'warn' }),
    );
    const login = await restored.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { authorization: `Bearer ${TEST_APP_KEY}` },
      payload: { email: customer.email, password: customer.password },
    });
    expect(login.statusCode, login.body).toBe(200);
    const session = `Bearer ${TEST_APP_KEY} ${login.json().sessionId as string}`;
    const jwt2 = (await restored.app.inject({ method: 'GET', url: '/api/token/jwt', headers: { authorization: session } })).json()
      .jwtToken as string;
    const file = await restored.app.inject({ method: 'GET', url: fileUrl, headers: { authorization: `Bearer ${jwt2}` } });
    expect(file.statusCode).toBe(200);
    expect(sha(file.rawPayload)).toBe(sha(data));
  }, 120_000);
});
