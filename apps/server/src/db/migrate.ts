// Migrations are the files in ./migrations, applied in name order. Each issue's migrations use
// their own number range, so unordered application is allowed (a later range may land first).
// A migration that needs another range's later tables exports `runsAfter` (that migration's
// name) and is applied after all the others on a fresh database (0220-avatar-links needs
// knowledge, functions and keys).
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

type OrderedMigration = Migration & { runsAfter?: string };

class FolderProvider implements MigrationProvider {
  /** `keep(name, migration)`: whether this pass sees the migration. */
  constructor(private readonly keep: (name: string, m: OrderedMigration) => boolean = () => true) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    const files = readdirSync(dir)
      .filter((f) => /^\d{4}-[\w-]+\.ts$/.test(f))
      .sort();
    for (const file of files) {
      const name = file.replace(/\.ts$/, '');
      // A path esbuild can follow: scripts/run-ts.mjs bundles every migration as a chunk.
      const m = (await import(`./migrations/${name}.ts`)) as OrderedMigration;
      if (this.keep(name, m)) out[name] = m;
    }
    return out;
  }
}

/** Applies what is pending: first the migrations in name order, leaving out those that declare
 *  `runsAfter` and have not run yet (they need tables of a later number range), then those. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run below the typed schema
export async function migrate(db: Kysely<any>, schema?: string): Promise<string[]> {
  // The migrations' table lives in the schema the tables go to: the one given, else the first of
  // the connection's search_path. Unnamed, Kysely takes a kysely_migration table of any other
  // schema for this one's (a database URL whose search_path names a schema, beside another
  // schema already migrated, failed with 'relation "kysely_migration" does not exist').
  const home = schema ?? (await sql<{ name: string | null }>`select current_schema() as name`.execute(db)).rows[0]?.name ?? undefined;
  const migrator = (provider: FolderProvider) =>
    new Migrator({ db, provider, allowUnorderedMigrations: true, ...(home ? { migrationTableSchema: home } : {}) });
  const all = migrator(new FolderProvider());
  const executed = new Set((await all.getMigrations()).filter((m) => m.executedAt).map((m) => m.name));
  const applied: string[] = [];
  for (const pass of [migrator(new FolderProvider((name, m) => !m.runsAfter || executed.has(name))), all]) {
    const { error, results } = await pass.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    applied.push(...(results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName));
  }
  return applied;
}
