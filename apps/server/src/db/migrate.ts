// Migrations are the files in ./migrations, applied in name order. Each issue's migrations use
// their own number range, so unordered application is allowed (a later range may land first).
// A migration that needs another range's later tables exports `runsAfter` (that migration's
// name) and is applied after all the others on a fresh database (0220-avatar-links needs
// knowledge, functions and keys).
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

type OrderedMigration = Migration & { runsAfter?: string };

class FolderProvider implements MigrationProvider {
  /** Without the migrations that declare `runsAfter` (the first pass), unless already applied
   *  (a database migrated before, e.g. the tests' snapshot: Kysely refuses a missing one). */
  constructor(
    private readonly withDeferred: boolean,
    private readonly applied: ReadonlySet<string>,
  ) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    const files = readdirSync(dir).filter((f) => /^\d{4}-[\w-]+\.ts$/.test(f)).sort();
    for (const file of files) {
      const m = (await import(pathToFileURL(join(dir, file)).href)) as OrderedMigration;
      const name = file.replace(/\.ts$/, '');
      if (m.runsAfter && !this.withDeferred && !this.applied.has(name)) continue;
      out[name] = m;
    }
    return out;
  }
}

/** Applies what is pending: first the migrations in name order, then those that declare
 *  `runsAfter` (they need tables of a later number range). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run below the typed schema
export async function migrate(db: Kysely<any>, schema?: string): Promise<string[]> {
  const applied: string[] = [];
  const table = schema ? sql`${sql.id(schema)}.kysely_migration` : sql`kysely_migration`;
  const before = await sql<{ name: string }>`select name from ${table}`.execute(db).then(
    (r) => new Set(r.rows.map((row) => row.name)),
    () => new Set<string>(),
  );
  for (const withDeferred of [false, true]) {
    const migrator = new Migrator({
      db,
      provider: new FolderProvider(withDeferred, before),
      allowUnorderedMigrations: true,
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    applied.push(...(results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName));
  }
  return applied;
}
