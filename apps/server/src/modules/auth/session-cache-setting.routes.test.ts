// SESSION_CACHE_TTL_MS acts (decision 017): with the cache on, a session revoked behind the
// cache's back (SQL with the notifying trigger switched off for its transaction, so no notification is sent) is still
// served for up to the TTL; with 0, the next request reads the database and is refused. Seen from
// outside, by the API's answer. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createCustomer, login } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Signs a customer in, asks, revokes the session with no notification, and answers the
 *  status of the next request. */
async function statusAfterSilentRevoke(env: Record<string, string>): Promise<number> {
  server = await createTestServer(env);
  const account = await createCustomer(server, 'ttl');
  const token = await login(server, account.email, account.password);
  const ask = () => server!.inject({ method: 'GET', url: '/api/account_info', token });
  // Asked until one answer came from the cache when it is on (a late notification of the
  // account's creation may drop the first entry); with 0 every ask reads the database.
  for (let i = 0; i < 5; i++) {
    const hits = server.ctx.sessions.stats.hits;
    expect((await ask()).statusCode).toBe(200);
    if (server.ctx.sessions.stats.hits > hits) break;
  }
  await server.ctx.db.transaction().execute(async (trx) => {
    await sql`alter table sessions disable trigger sessions_auth_notify`.execute(trx);
    await sql`update sessions set revoked_at = now() where user_id = ${account.id}`.execute(trx);
    await sql`alter table sessions enable trigger sessions_auth_notify`.execute(trx);
  });
  return (await ask()).statusCode;
}

describe('SESSION_CACHE_TTL_MS', () => {
  it('on (30 s): a session revoked without a notification is still served from memory', async () => {
    expect(await statusAfterSilentRevoke({ SESSION_CACHE_TTL_MS: '30000' })).toBe(200);
  });

  it('0: every request reads the database, so the revoked session is refused at once', async () => {
    expect(await statusAfterSilentRevoke({ SESSION_CACHE_TTL_MS: '0' })).toBe(401);
  });
});
