// Synchronized scans are off on every connection (database.ts, SYNC_SCANS): a sequential scan with
// a LIMIT and no ORDER BY — the knowledge search's sample of a common word's first matches — must
// answer the same rows whatever scan ran before (decision 409's amendment of 2026-11-29). The scan
// only starts elsewhere on tables larger than a quarter of shared_buffers, too large for a test, so
// the setting itself is checked, on each of several connections at once.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe('sequential scans', () => {
  it('start at the first block on every connection (synchronize_seqscans is off)', async () => {
    const settings = await Promise.all(
      Array.from({ length: 4 }, () =>
        sql<{ s: string }>`select current_setting('synchronize_seqscans') as s, pg_sleep(0.05)`.execute(server.ctx.db),
      ),
    );
    expect(settings.map((r) => r.rows[0]!.s)).toEqual(['off', 'off', 'off', 'off']);
  });
});
