// Before the server suite: on PostgreSQL, drop schemas left by an earlier, killed run (and, after
// it, those the test servers' pool kept: test/database-pool.ts); on PGlite, make the migrated
// snapshot every test server starts from (test/pglite-snapshot.ts).
import type { TestProject } from 'vitest/node';
import { dropStaleSchemas } from './harness';
import { ensureSnapshot } from './pglite-snapshot';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    await dropStaleSchemas(url);
    project.provide('pgliteSnapshot', '');
    return () => dropStaleSchemas(url);
  }
  project.provide('pgliteSnapshot', await ensureSnapshot());
}
