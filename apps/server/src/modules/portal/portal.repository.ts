// The one query of the portal's own routes: whether the database answers.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

export async function ping(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}
