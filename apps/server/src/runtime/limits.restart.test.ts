// Usage counters live in the database: a server restart (same data directory) does not reset a
// daily limit, and a conversation left open by a dead process is ended when it was last seen.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../app';
import { parseConfig } from '../config';
import { openDatabase, type Database } from '../db/database';
import { migrate } from '../db/migrate';
import { TEST_SECRET_KEY } from '../../test/harness';
import { closeAll, connect } from '../../test/conversation-client';
import { DEFAULT_LIMITS } from './avatar';
import type { RuntimeHooks } from './runtime';

const dataDir = mkdtempSync(join(tmpdir(), 'parla-restart-'));
// The servers' clock is noon (UTC) today moving on with real time, then moved on by the test: the
// daily counters are per UTC day, and a run a minute before midnight crossed into the next day
// (CI at 23:59: the seconds of the day before no longer counted, so no limit was reached).
const noon = new Date();
noon.setUTCHours(12, 0, 0, 0);
let offset = noon.getTime() - Date.now();

async function start(): Promise<{
  host: string;
  database: Database;
  app: Awaited<ReturnType<typeof build>>['app'];
  close(): Promise<void>;
}> {
  const database = await openDatabase({ dataDir });
  await migrate(database.db);
  const config = parseConfig({ DATA_DIR: dataDir, SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'silent' });
  const { app } = await build({ config, database, secretKey: TEST_SECRET_KEY, serveWeb: false, now: () => new Date(Date.now() + offset) });
  const hooks: RuntimeHooks = {
    resolveAvatar: async (_ctx, req) => ({
      id: req.avatarId,
      ownerId: 'owner-restart',
      name: 'Limited',
      type: '2d',
      engineName: 'Large Language Model',
      engine: { kind: 'unavailable', message: 'the real brain' },
      limits: { ...DEFAULT_LIMITS, dailyLimitPerSession: 60 },
      retrieval: null,
      allowedOrigins: null,
      sendHistory: true,
      oauthAppId: null,
    }),
    retrieve: async () => [],
    oauthAppOf: async () => null,
  };
  app.runtime.hooks = hooks;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const s = {
    host: `127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    database,
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
  return s;
}

afterAll(async () => {
  await closeAll();
  // Each server is closed by its test; the data directory goes with them (decision 018).
  rmSync(dataDir, { recursive: true, force: true });
});

describe('limits across a restart', () => {
  it('keeps the seconds used today: after a restart the same session is still over its limit', async () => {
    let s = await start();
    await s.database.db
      .insertInto('users')
      .values({
        id: 'owner-restart',
        email: 'restart@example.com',
        password_hash: 'x',
        first_name: 'R',
        last_name: 'S',
        subscription_type: 4,
        subscribed_since: new Date(),
        created_at: new Date(),
        updated_at: new Date(),
      })
      .execute();
    const c = await connect(s.host, { avatarId: 'a1' }, { type: 'hello', deviceId: 'restart-dev' });
    expect((await c.next('ready')).engine).toBe('Large Language Model');
    offset += 40_000;
    await s.app.runtime.tickAll();
    c.ws.close();
    await c.closed;
    await s.close();

    s = await start();
    const d = await connect(s.host, { avatarId: 'a1' }, { type: 'hello', deviceId: 'restart-dev' });
    expect((await d.next('ready')).engine).toBe('Large Language Model');
    offset += 25_000;
    await s.app.runtime.tickAll();
    expect((await d.next('notice')).reason).toBe('daily_limit_echo');
    expect((await d.ask('now an echo')).text).toBe('now an echo');
    d.ws.close();
    await d.closed;
    await s.close();

    s = await start();
    const e = await connect(s.host, { avatarId: 'a1' }, { type: 'hello', deviceId: 'restart-dev' });
    expect((await e.next('ready')).engine).toBe('Echo');
    e.ws.close();
    await e.closed;
    await s.close();
  }, 120_000);

  it('ends a conversation record a dead process left open, at the time it was last seen', async () => {
    const s = await start();
    const seen = new Date(Date.now() + offset - 10 * 60_000);
    await s.database.db
      .insertInto('conversations')
      .values({
        id: 'orphan',
        owner_id: 'owner-restart',
        avatar_id: 'a1',
        avatar_name: 'x',
        avatar_type: '2d',
        user_id: 'u',
        user_name: 'u',
        started_at: new Date(seen.getTime() - 60_000),
        last_seen_at: seen,
      })
      .execute();
    await s.app.runtime.sweepStale();
    const row = await s.database.db.selectFrom('conversations').selectAll().where('id', '=', 'orphan').executeTakeFirstOrThrow();
    expect(row.ended_at?.getTime()).toBe(seen.getTime());
    expect(row.end_reason).toBe('server_lost');
    await s.close();
  }, 60_000);
});
