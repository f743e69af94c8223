// The embedded database's WAL keeper (db/wal.ts): PGlite never checkpoints by itself, so without
// the keeper every byte of WAL a talking server wrote stayed (on disk, or in memory). Real PGlite
// and PostgreSQL through the test harness.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';
import { CHECKPOINT_WAL_BYTES, keepWal, walSinceCheckpoint } from './wal';

let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('the WAL keeper', () => {
  it.skipIf(process.env.TEST_DATABASE_URL)('checkpoints PGlite once the WAL since the last checkpoint passed its limit', async () => {
    const db = server.ctx.db;
    await sql`create table wal_filler_kept (b text)`.execute(db);
    // Random text does not compress: 20 MB of rows write at least as much WAL.
    for (let i = 0; i < 20; i++) await sql`insert into wal_filler_kept values (${randomBytes(512 * 1024).toString('hex')})`.execute(db);
    expect(await walSinceCheckpoint(db)).toBeGreaterThan(CHECKPOINT_WAL_BYTES);

    const errors: unknown[] = [];
    const stop = await keepWal(server.ctx.database, (e) => errors.push(e), 20);
    try {
      await expect.poll(() => walSinceCheckpoint(db), { timeout: 10_000 }).toBeLessThan(CHECKPOINT_WAL_BYTES);
    } finally {
      await stop();
      await sql`drop table wal_filler_kept`.execute(db);
    }
    expect(errors).toEqual([]);
  });

  it('does nothing on PostgreSQL, whose checkpointer keeps its WAL', async () => {
    const stop = await keepWal({ kind: 'postgres', db: server.ctx.db }, () => undefined, 1);
    await stop();
  });
});
