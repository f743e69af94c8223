import { sql, type Kysely } from 'kysely';
import { ROWS_0681 } from './0683-billing-report-json';
import { minutesSql, reportSql } from './0693-billing-report-exact-total';

// The range's edge conversations that run into its first or last hour from an earlier one were
// found by joining billing_crossings to conversations; with the generic plan of 0693 PostgreSQL
// hashed the crossings and read every row of conversations (every account's) to probe them, on
// every report and every plan check: O(all conversations), not O(the edges). Looked up by id
// instead (`= any (array(...))`, the primary key's index), the same rows are read as the
// crossings name (a conversation crossing both hours once: the edges are a union, so it counted
// once before too). Docs/decisions/500, amendment "the crossings by id".
const JOINED = `
          from billing_crossings x join conversations c on c.id = x.conversation_id
         where x.owner_id = o and x.hour in (h_start, h_last)`;

const BY_ID = `
          from conversations c
         where c.id = any (array(select x.conversation_id from billing_crossings x where x.owner_id = o and x.hour in (h_start, h_last)))`;

if (!ROWS_0681.includes(JOINED)) throw new Error('0700: the crossings join of 0681 was not found');
export const ROWS_0700 = ROWS_0681.replace(JOINED, BY_ID);

async function create(db: Kysely<unknown>, rows: string): Promise<void> {
  await sql`drop function billing_report(text, timestamptz, timestamptz, integer, integer, integer)`.execute(db);
  await sql.raw(reportSql(rows)).execute(db);
  await sql.raw(minutesSql(rows)).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await create(db, ROWS_0700);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await create(db, ROWS_0681);
}
