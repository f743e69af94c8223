// `npm run backup -- --out DIR` and `npm run restore -- DIR` (docs/deploy.md "Backup and
// restore", decision 013): the embedded database while the server runs, with the uploaded files
// and the secret key.
//   backup: signs in as an administrator (ADMIN_EMAIL, ADMIN_PASSWORD, APP_KEY of the
//     environment), takes the running server's consistent copy of PGlite (GET /api/admin/backup),
//     then copies DATA_DIR/files and DATA_DIR/secret.key. Files are copied after the database, so
//     every file a row of the copy names was already whole on disk (files are renamed into place
//     before their row commits; decision 005).
//   restore: into a DATA_DIR that has no database yet; the server then starts on it as usual.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

const DATABASE = 'database.tar';

export interface BackupOptions {
  url: string;
  dataDir: string;
  out: string;
  appKey: string;
  email: string;
  password: string;
}

/** Writes a backup of the running server into `out` (a new directory); returns what it holds. */
export async function backup(o: BackupOptions): Promise<{ files: number; bytes: number; secretKey: boolean }> {
  if (existsSync(o.out) && readdirSync(o.out).length > 0) throw new Error(`${o.out} is not empty`);
  const login = await fetch(`${o.url}/api/login`, {
    method: 'POST',
    headers: { authorization: `Bearer ${o.appKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: o.email, password: o.password }),
  });
  if (login.status !== 200) throw new Error(`sign-in as ${o.email} failed (${login.status}): ${await login.text()}`);
  const session = ((await login.json()) as { sessionId: string }).sessionId;
  const res = await fetch(`${o.url}/api/admin/backup`, { headers: { authorization: `Bearer ${o.appKey} ${session}` } });
  if (res.status !== 200) throw new Error(`the server refused the backup (${res.status}): ${await res.text()}`);
  const tar = Buffer.from(await res.arrayBuffer());
  mkdirSync(o.out, { recursive: true, mode: 0o700 });
  writeFileSync(join(o.out, DATABASE), tar, { mode: 0o600 });
  let files = 0;
  const source = join(o.dataDir, 'files');
  if (existsSync(source)) {
    cpSync(source, join(o.out, 'files'), { recursive: true, filter: (p) => !p.startsWith(join(source, 'tmp')) });
    files = readdirSync(join(o.out, 'files'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  }
  const key = join(o.dataDir, 'secret.key');
  const secretKey = existsSync(key);
  if (secretKey) writeFileSync(join(o.out, 'secret.key'), readFileSync(key), { mode: 0o600 });
  return { files, bytes: tar.length, secretKey };
}

/** Restores a backup into `dataDir`, which must not hold a database yet. */
export async function restore(from: string, dataDir: string): Promise<void> {
  const pgDir = join(dataDir, 'pg');
  if (existsSync(pgDir) && readdirSync(pgDir).length > 0) throw new Error(`${pgDir} already holds a database; restore into a new DATA_DIR`);
  mkdirSync(pgDir, { recursive: true });
  const tar = readFileSync(join(from, DATABASE));
  const pg = await PGlite.create({ dataDir: pgDir, loadDataDir: new Blob([tar]), extensions: { vector } });
  await pg.query('select 1');
  await pg.close();
  if (existsSync(join(from, 'files'))) cpSync(join(from, 'files'), join(dataDir, 'files'), { recursive: true });
  if (existsSync(join(from, 'secret.key')))
    writeFileSync(join(dataDir, 'secret.key'), readFileSync(join(from, 'secret.key')), { mode: 0o600 });
}
