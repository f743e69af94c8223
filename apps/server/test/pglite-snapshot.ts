// A migrated PGlite data directory made once per test run (issue 16, CI time): starting PGlite
// from it skips initdb and the migrations, the bulk of each API test server's start (measured
// here under load: fresh 8.5–14 s + 1.5 s of migrations, from the snapshot 2–3.4 s). Named by
// the migrations' contents, so a changed migration makes a new one; written atomically, so
// parallel runs share it safely. The end-to-end launcher starts its server from it too.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGLITE_EXTENSIONS } from '../src/db/pglite-extensions';
import { PGliteDialect } from '../src/db/pglite-dialect';
import { migrate } from '../src/db/migrate';

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');

function snapshotPath(): string {
  const hash = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS).sort()) hash.update(f).update(readFileSync(join(MIGRATIONS, f)));
  return join(tmpdir(), `parla-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Makes the snapshot unless it exists; its path. */
export async function ensureSnapshot(): Promise<string> {
  const path = snapshotPath();
  if (existsSync(path)) return path;
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const db = new Kysely<never>({ dialect: new PGliteDialect(pglite) });
  await migrate(db);
  const blob = await pglite.dumpDataDir('none');
  await pglite.close();
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
  renameSync(tmp, path);
  return path;
}

let cached: { path: string; blob: Blob } | null = null;

/** The snapshot as PGlite loads it (read once per worker). */
export function snapshotBlob(path: string): Blob {
  if (cached?.path !== path) cached = { path, blob: new Blob([readFileSync(path)]) };
  return cached.blob;
}
