// The session cache across server processes (decision 017): two servers over one database, each
// with its own cache. On PostgreSQL (TEST_DATABASE_URL) the second has connections of its own,
// LISTEN included, as another process has; on PGlite (one process per data directory) both share
// the instance and its listener. A sign-out or a suspension on A ends the session on B within the
// notification's time; the measured delays are printed. With B's LISTEN connection ended
// (pg_terminate_backend), B bypasses its cache, stays correct, and comes back.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomer, login, type TestAccount } from '../accounts';
import { createTestServer, type TestServer } from '../harness';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let a: TestServer;
let b: TestServer;
let admin: TestAccount;
/** Milliseconds, per round: from A's answer to B's first 401 (0: B's very next request was
 *  refused), and from A's request being sent to B hearing the notification. */
const delays: Record<string, number[]> = {
  'sign-out answered → B refuses': [],
  'suspension answered → B refuses': [],
  'sign-out sent → B notified': [],
};

beforeAll(async () => {
  a = await createTestServer();
  b = await createTestServer({}, { sameDatabaseAs: a, ownConnections: true });
  admin = await createAdmin(a);
});
afterAll(async () => {
  const line = (k: string) => `${k}: ${delays[k]!.map((ms) => ms.toFixed(1)).join(', ')} ms`;
  console.log(`session cache across processes (${onPostgres ? 'PostgreSQL' : 'PGlite'}):\n  ${Object.keys(delays).map(line).join('\n  ')}`);
  await b.close();
  await a.close();
});

const info = (server: TestServer, token: string) => server.inject({ method: 'GET', url: '/api/account_info', token });

/** The session is cached on both servers: asks each until a request is a hit (a late
 *  notification of the account's creation may drop the first entry). */
async function warm(token: string): Promise<void> {
  for (const server of [a, b]) {
    let hit = false;
    for (let i = 0; i < 5 && !hit; i++) {
      const hits = server.ctx.sessions.stats.hits;
      expect((await info(server, token)).statusCode).toBe(200);
      hit = server.ctx.sessions.stats.hits > hits;
    }
    expect(hit, 'served from the cache').toBe(true);
  }
}

/** Asks B until it answers 401 (at most 2 s); the time from `since` to the start of the request
 *  that was refused (0: the first one). */
async function untilRefused(token: string, since: number): Promise<number> {
  for (;;) {
    const asked = performance.now();
    const res = await info(b, token);
    if (res.statusCode === 401) return asked - since;
    expect(res.statusCode).toBe(200);
    if (performance.now() - since > 2_000) throw new Error('B still serves the session 2 s after the change');
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** When B is told of `userId` (performance.now()). */
function heardOn(server: TestServer, userId: string): Promise<number> {
  return new Promise((resolve) => {
    server.app.sessionInvalidation.onNotify = (payload) => {
      if (payload !== userId) return;
      server.app.sessionInvalidation.onNotify = undefined;
      resolve(performance.now());
    };
  });
}

describe('the session cache across two server processes', () => {
  it('a sign-out on A: B answers 401 within the notification time', async () => {
    expect(a.app.sessionInvalidation.up && b.app.sessionInvalidation.up).toBe(true);
    for (let round = 0; round < 5; round++) {
      const account = await createCustomer(a, `cross-logout-${round}`);
      const token = await login(a, account.email, account.password);
      await warm(token);
      const heard = heardOn(b, account.id);
      const sent = performance.now();
      expect((await a.inject({ method: 'GET', url: '/api/logout', token })).statusCode).toBe(200);
      delays['sign-out answered → B refuses']!.push(await untilRefused(token, performance.now()));
      delays['sign-out sent → B notified']!.push((await heard) - sent);
    }
    // A notification's trip: well under the cache time, and in practice milliseconds.
    expect(Math.max(...delays['sign-out answered → B refuses']!)).toBeLessThan(1_000);
  });

  it("a suspension on A: B's next requests answer 401", async () => {
    for (let round = 0; round < 3; round++) {
      const account = await createCustomer(a, `cross-suspend-${round}`);
      const token = await login(a, account.email, account.password);
      await warm(token);
      const res = await a.inject({
        method: 'POST',
        url: '/api/admin/customer_status',
        token: admin.token,
        payload: { userId: account.id, status: 'SUSPENDED' },
      });
      expect(res.statusCode, res.body).toBe(200);
      delays['suspension answered → B refuses']!.push(await untilRefused(token, performance.now()));
      for (let i = 0; i < 3; i++) expect((await info(b, token)).statusCode).toBe(401);
    }
  });

  it.runIf(onPostgres)('with its LISTEN connection ended, B looks every session up (and stays right) until it is back', async () => {
    const account = await createCustomer(a, 'cross-drop');
    const token = await login(a, account.email, account.password);
    await warm(token);
    const pid = b.app.sessionInvalidation.listenerPid;
    expect(pid).toBeTypeOf('number');
    await sql`select pg_terminate_backend(${pid})`.execute(a.ctx.db);
    await expect.poll(() => b.app.sessionInvalidation.up, { timeout: 2_000, interval: 5 }).toBe(false);
    expect(b.ctx.sessions.size).toBe(0);

    const { hits, misses } = b.ctx.sessions.stats;
    for (let i = 0; i < 3; i++) expect((await info(b, token)).statusCode).toBe(200);
    expect(b.ctx.sessions.stats.hits).toBe(hits);
    expect(b.ctx.sessions.stats.misses).toBe(misses + 3);
    // A revocation meanwhile: B refuses at once, since it asks the database.
    await a.ctx.db.updateTable('sessions').set({ revoked_at: new Date() }).where('user_id', '=', account.id).execute();
    expect((await info(b, token)).statusCode).toBe(401);

    // It comes back within a second or two, and caches again.
    await expect.poll(() => b.app.sessionInvalidation.up, { timeout: 5_000, interval: 50 }).toBe(true);
    expect(b.app.sessionInvalidation.listenerPid).not.toBe(pid);
    await warm(await login(a, account.email, account.password));
  });
});
