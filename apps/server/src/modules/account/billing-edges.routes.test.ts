// Migration 0700: the billing report's edge conversations (those running into the range's first or
// last hour from an earlier one) are found by id from billing_crossings. Joined as 0681 wrote it,
// PostgreSQL's generic plan hashed the crossings and read every row of conversations (every
// account's) on each report, on an account shaped like Bench 12's: many short conversations,
// some of them crossing an hour, in a table of a few thousand rows (decision 500, amendment
// "the crossings by id").
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { minutesUsed, usagePage } from './billing.repository';

let server: TestServer;
let owner: TestAccount;
const END = new Date(Date.UTC(2026, 10, 30, 1, 58, 26));
const START = new Date(END.getTime() - 30 * 24 * 3600_000);

beforeAll(async () => {
  server = await createTestServer();
  owner = await createCustomer(server, 'dana');
  // 5,000 avatars' conversations of two minutes, a second apart, ending an hour before END.
  await sql`
    insert into conversations (id, owner_id, avatar_id, avatar_name, avatar_type, user_id, user_name, started_at, last_seen_at, ended_at, end_reason)
    select gen_random_uuid()::text, ${owner.id}, 'av-' || i, 'Avatar ' || i, '2d', 'visitor', 'Visitor', t, t + interval '2 minutes', t + interval '2 minutes', 'bye'
      from generate_series(0, 4999) i, lateral (select ${END}::timestamptz - interval '1 hour' - i * interval '1 second' as t) x`.execute(
    server.ctx.db,
  );
  await sql`analyze`.execute(server.ctx.db);
}, 120_000);
afterAll(() => server.close());

describe('billing report edges', () => {
  it('reads the conversations its crossings name, not the whole table', async () => {
    const db = server.ctx.db;
    // Each way (walk, sort, the function's choice) more than once, so the plans are the generic ones.
    for (const cap of [1_000_000, 0, null, 1_000_000, 0, null, 1_000_000, 0, null, null]) {
      const { scans, page } = await db.transaction().execute(async (trx) => {
        const page = await usagePage(trx, owner.id, START, END, 200, 0, cap);
        await minutesUsed(trx, owner.id, START, END);
        const r = await sql<{ n: number }>`
          select coalesce(sum(seq_scan), 0)::int as n from pg_stat_xact_user_tables where relname = 'conversations'`.execute(trx);
        return { scans: r.rows[0]!.n, page };
      });
      expect(page.totalCalls).toBe(5000);
      expect(page.rows).toHaveLength(200);
      expect(scans, `sequential scans of conversations (walk cap ${cap})`).toBe(0);
    }
  });
});
