// Migrations are the files in ./migrations, applied in name order. Each issue's migrations use
// their own number range, so unordered application is allowed (a later range may land first).
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

class FolderProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    const files = readdirSync(dir).filter((f) => /^\d{4}-[\w-]+\.ts$/.test(f)).sort();
    for (const file of files) {
      out[file.replace(/\.ts$/, '')] = (await import(pathToFileURL(join(dir, file)).href)) as Migration;
    }
    return out;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run below the typed schema
export async function migrate(db: Kysely<any>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new FolderProvider(),
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
