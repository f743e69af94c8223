// `npm run backup -- --out DIR` and `npm run restore -- DIR` (docs/deploy.md "Backup and
// restore", decisions 013 and 015): the embedded database while the server runs, which holds the
// uploaded files too, and the secret key.
//   backup: signs in as an administrator (ADMIN_EMAIL, ADMIN_PASSWORD, APP_KEY of the
//     environment), takes the running server's consistent copy of PGlite (GET /api/admin/backup),
//     written to disk as it arrives, then copies DATA_DIR/secret.key.
//   restore: into a DATA_DIR that has no database yet; the server then starts on it as usual.
//     A backup of an older release also holds `files/`: those are copied into DATA_DIR/files,
//     and the server moves them into the database at its first start.
import { cpSync, createWriteStream, existsSync, mkdirSync, openAsBlob, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from './db/pglite-extensions';

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
/** `files`: the uploaded files inside the copy. */
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
  mkdirSync(o.out, { recursive: true, mode: 0o700 });
  const target = join(o.out, DATABASE);
  await pipeline(Readable.fromWeb(res.body! as WebReadableStream<Uint8Array>), createWriteStream(target, { mode: 0o600 }));
  const files = Number(res.headers.get('x-parla-stored-files') ?? 0);
  const key = join(o.dataDir, 'secret.key');
  const secretKey = existsSync(key);
  if (secretKey) writeFileSync(join(o.out, 'secret.key'), readFileSync(key), { mode: 0o600 });
  return { files, bytes: statSync(target).size, secretKey };
}

/** Restores a backup into `dataDir`, which must not hold a database yet. */
export async function restore(from: string, dataDir: string): Promise<void> {
  const pgDir = join(dataDir, 'pg');
  if (existsSync(pgDir) && readdirSync(pgDir).length > 0) throw new Error(`${pgDir} already holds a database; restore into a new DATA_DIR`);
  mkdirSync(pgDir, { recursive: true });
  // A Blob backed by the file: the copy is not read into memory first.
  const tar = await openAsBlob(join(from, DATABASE));
  const pg = await PGlite.create({ dataDir: pgDir, loadDataDir: tar, extensions: PGLITE_EXTENSIONS });
  await pg.query('select 1');
  await pg.close();
  if (existsSync(join(from, 'files'))) cpSync(join(from, 'files'), join(dataDir, 'files'), { recursive: true });
  if (existsSync(join(from, 'secret.key')))
    writeFileSync(join(dataDir, 'secret.key'), readFileSync(join(from, 'secret.key')), { mode: 0o600 });
}
