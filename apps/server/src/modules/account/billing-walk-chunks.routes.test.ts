// Migration 0701: the names walk reads its candidates in chunks (the page's count, then 64 more,
// then up to the cap), each continuing where the last stopped, and a page found across chunks is
// the same page (decision 500, amendment "the walk in chunks"). Stale names between the others make
// the first chunk fall short, so the page's rows come from two chunks (dave's test in
// billing-rollups.routes.test.ts reaches the third).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { usagePage } from './billing.repository';

let server: TestServer;
let owner: TestAccount;
const START = new Date(Date.UTC(2026, 9, 1));
const END = new Date(Date.UTC(2026, 9, 3));
const AVATARS = 90;
const two = (i: number) => String(i).padStart(2, '0');

beforeAll(async () => {
  server = await createTestServer();
  owner = await createCustomer(server, 'chunk');
  // Each avatar one conversation of two minutes in the range, named "Avatar nn"; avatars whose
  // number is divisible by 3 also one the month before, named "Avatar nn old": a pair the names
  // keep, right after "Avatar nn" in the report's order, that does not name the avatar in the range.
  await sql`
    insert into conversations (id, owner_id, avatar_id, avatar_name, avatar_type, user_id, user_name, started_at, last_seen_at, ended_at, end_reason)
    select gen_random_uuid()::text, ${owner.id}, 'av-' || lpad(i::text, 2, '0'), 'Avatar ' || lpad(i::text, 2, '0') || n, '2d', 'visitor', 'Visitor', t, t + interval '2 minutes', t + interval '2 minutes', 'bye'
      from generate_series(0, ${AVATARS - 1}) i,
           lateral (values ('', ${START}::timestamptz + interval '5 hours' + i * interval '3 minutes'),
                           (' old', ${START}::timestamptz - interval '30 days' + i * interval '3 minutes')) x(n, t)
     where n = '' or i % 3 = 0`.execute(server.ctx.db);
}, 120_000);
afterAll(() => server.close());

describe('billing report walk in chunks', () => {
  it('finds the same page when the first chunk falls short and the rows come from later chunks', async () => {
    const db = server.ctx.db;
    // A page of 10 finds 8 rows in its first chunk of 11 candidates (3 stale), the other 2 and the
    // row past it in the next; at offset 5, 7 of its rows in the first chunk of 16 (4 stale);
    // the last pages read every name.
    for (const [limit, offset] of [
      [10, 0],
      [10, 5],
      [5, 20],
      [40, 60],
      [200, 0],
      [3, 87],
    ] as const) {
      const want = Array.from({ length: Math.max(0, Math.min(limit, AVATARS - offset)) }, (_v, k) => ({
        avatarName: `Avatar ${two(offset + k)}`,
        avatarId: `av-${two(offset + k)}`,
        totalCallDuration: 2,
        totalCallCount: 1,
      }));
      const label = `limit ${limit} offset ${offset}`;
      const walk = await usagePage(db, owner.id, START, END, limit, offset, 1_000_000);
      expect(walk.walked, label).toBe(true);
      expect(walk.rows, label).toEqual(want);
      expect(walk.more, label).toBe(offset + limit < AVATARS);
      expect(walk.totalCalls, label).toBe(AVATARS);
      const sorted = await usagePage(db, owner.id, START, END, limit, offset, 0);
      expect(sorted.walked, label).toBe(false);
      expect({ ...sorted, walked: true }, label).toEqual(walk);
      expect({ ...(await usagePage(db, owner.id, START, END, limit, offset)), walked: true }, label).toEqual(walk);
    }
  });
});
