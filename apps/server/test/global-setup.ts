// Before the API suite on PostgreSQL: drop schemas left by an earlier, killed run.
import { dropStaleSchemas } from './harness';

export default async function setup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) await dropStaleSchemas(process.env.TEST_DATABASE_URL);
}
