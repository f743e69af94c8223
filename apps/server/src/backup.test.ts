// Backup and restore (issue 34 items 4 and 6, decisions 013 and 015): a customer's knowledge
// file and an avatar's background video are backed up while the server runs, restored, and a
// server started on a fresh DATA_DIR serves both byte for byte, a range of the video included.
// The files are in the database, so the database's copy is the whole backup:
//   - PGlite: `npm run backup`'s code (GET /api/admin/backup) and `npm run restore`'s;
//   - PostgreSQL: the documented procedure, pg_dump of the schema restored with psql into a new
//     one (docs/deploy.md "Backup and restore").
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { Avatar } from '@parla/shared/schemas/avatar';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import { createAdmin, createCustomer } from '../test/accounts';
import { fileOf, save } from '../test/avatar-requests';
import { createTestServer, TEST_APP_KEY, TEST_SECRET_KEY, type TestServer } from '../test/harness';
import { kbToken, multipart } from '../test/knowledge-requests';
import { backup, restore } from './backup';
import { parseConfig } from './config';
import { openDatabase } from './db/database';
import { CHUNK_BYTES } from './lib/file-store';
import { startServer, type RunningServer } from './server';

const dirs: string[] = [];
const temp = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `parla-${name}-`));
  dirs.push(d);
  return d;
};
let server: TestServer | undefined;
let restored: RunningServer | undefined;
let restoredSchema: string | undefined;

afterAll(async () => {
  await restored?.close();
  await server?.close();
  if (restoredSchema) {
    const db = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL! });
    await sql.raw(`drop schema if exists "${restoredSchema}" cascade`).execute(db.db);
    await db.close();
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** PostgreSQL: the schema dumped with pg_dump and loaded into a new schema with psql. */
function pgDumpAndRestore(url: string, schema: string): string {
  const target = `r_${randomBytes(6).toString('hex')}`;
  const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', '-n', schema, url], { maxBuffer: 512 * 1024 * 1024 });
  // The schema's name is random hex with a prefix: it cannot occur inside the data (bytea is hex too, but has no "_").
  const file = join(temp('pgdump'), 'dump.sql');
  writeFileSync(file, dump.toString('utf8').replaceAll(schema, target));
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-f', file, url], { stdio: 'pipe' });
  return target;
}

describe('backup and restore', () => {
  it('restores a backup taken while the server runs into a fresh DATA_DIR, with its knowledge file and background video', async () => {
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
    const look = ((await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars as CatalogueAvatar[]).find(
      (a) => a.type === '2d',
    )!;
    const video = Buffer.concat([fileOf('mp4', 16), randomBytes(2 * CHUNK_BYTES + 999)]);
    const saved = await save(server, customer.token, { name: 'Backed up', dhType: look.type, appearanceId: look.id }, [
      { field: 'backgroundImage', data: video },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    const videoUrl = (saved.json().agent as Avatar).mediaDetails.backgroundImage[0]!.url;
    const url = await server.listen();
    const fresh = temp('restored');

    const pgUrl = process.env.TEST_DATABASE_URL;
    if (pgUrl) {
      // The embedded backup command says to use pg_dump; pg_dump is the whole backup.
      await expect(
        backup({
          url,
          dataDir: server.ctx.config.DATA_DIR,
          out: join(temp('backup'), 'copy'),
          appKey: TEST_APP_KEY,
          email: admin.email,
          password: admin.password,
        }),
      ).rejects.toThrow(/pg_dump/);
      restoredSchema = pgDumpAndRestore(pgUrl, server.ctx.database.schema!);
      const restoredUrl = new URL(pgUrl);
      restoredUrl.searchParams.set('options', `-c search_path=${restoredSchema}`);
      restored = await startServer(
        parseConfig({
          DATA_DIR: fresh,
          DATABASE_URL: restoredUrl.toString(),
          PORT: '0',
          HOST: '127.0.0.1',
          APP_KEY: TEST_APP_KEY,
          SECRET_KEY: TEST_SECRET_KEY,
          LOG_LEVEL: 'warn',
        }),
      );
    } else {
      const out = join(temp('backup'), 'copy');
      const done = await backup({
        url,
        dataDir: server.ctx.config.DATA_DIR,
        out,
        appKey: TEST_APP_KEY,
        email: admin.email,
        password: admin.password,
      });
      expect(done.files).toBe(2);
      // The files travel inside the database's copy: nothing else to copy.
      expect(readdirSync(out).sort()).toEqual(['database.tar', 'secret.key'].filter((f) => f !== 'secret.key' || done.secretKey));
      // Customers may not take a backup.
      expect((await server.inject({ method: 'GET', url: '/api/admin/backup', token: customer.token })).statusCode).toBe(403);
      await restore(out, fresh);
      expect(existsSync(join(fresh, 'pg'))).toBe(true);
      restored = await startServer(
        parseConfig({
          DATA_DIR: fresh,
          PORT: '0',
          HOST: '127.0.0.1',
          APP_KEY: TEST_APP_KEY,
          SECRET_KEY: TEST_SECRET_KEY,
          LOG_LEVEL: 'warn',
        }),
      );
    }
    expect(await restored.ctx.files.missing(restored.ctx.db)).toMatchObject({ checked: 2, missing: 0 });
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
    const path = videoUrl.slice(videoUrl.indexOf('/config-files/'));
    const whole = await restored.app.inject({ method: 'GET', url: path });
    expect(whole.statusCode).toBe(200);
    expect(sha(whole.rawPayload)).toBe(sha(video));
    const from = CHUNK_BYTES - 100;
    const part = await restored.app.inject({ method: 'GET', url: path, headers: { range: `bytes=${from}-${from + 199}` } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(video.subarray(from, from + 200))).toBe(true);
  }, 180_000);
});
