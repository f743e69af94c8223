// Before the server suite: on PostgreSQL, drop schemas left by an earlier, killed run; on PGlite,
// make the migrated snapshot every test server starts from (test/pglite-snapshot.ts).
import type { TestProject } from 'vitest/node';
import { dropStaleSchemas } from './harness';
import { ensureSnapshot } from './pglite-snapshot';

export default async function setup(project: TestProject): Promise<void> {
  if (process.env.TEST_DATABASE_URL) {
    await dropStaleSchemas(process.env.TEST_DATABASE_URL);
    project.provide('pgliteSnapshot', '');
    return;
  }
  project.provide('pgliteSnapshot', await ensureSnapshot());
}
