// The session cache through the API (decision 017): a session looked up once is served from the
// process's memory, and every change of the account or the session ends it at the next request.
// On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomer, latestOutboxCode, login, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let admin: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  admin = await createAdmin(server);
});
afterAll(() => server.close());

const accountInfo = (token: string) => server.inject({ method: 'GET', url: '/api/account_info', token });
const adminRoute = (token: string) => server.inject({ method: 'GET', url: '/api/admin/mail_status', token });
const kbRoute = (jwt: string) =>
  server.inject({ method: 'GET', url: '/kb/v1/collections', appKey: null, headers: { authorization: `Bearer ${jwt}` } });

/** Signs in afresh and makes the session a cached one: asks until a request is a hit (a late
 *  notification of the account's creation, or another test file's emptied database on the same
 *  PostgreSQL, may drop the first entry). */
async function cachedSession(account: TestAccount): Promise<string> {
  const token = await login(server, account.email, account.password);
  for (let i = 0; i < 5; i++) {
    const hits = server.ctx.sessions.stats.hits;
    expect((await accountInfo(token)).statusCode).toBe(200);
    if (server.ctx.sessions.stats.hits > hits) return token;
  }
  throw new Error('the session was never served from the cache');
}

describe('the session cache', () => {
  it('serves a signed-in session from memory: one database look-up for many requests', async () => {
    expect(server.app.sessionInvalidation.up).toBe(true);
    const account = await createCustomer(server, 'cache-warm');
    const token = await cachedSession(account);
    const { hits, misses } = server.ctx.sessions.stats;
    for (let i = 0; i < 10; i++) expect((await accountInfo(token)).json().accountDetails.Email).toBe(account.email);
    // Another test file's database emptied on the same PostgreSQL empties every cache: allow one.
    expect(server.ctx.sessions.stats.hits - hits).toBeGreaterThanOrEqual(9);
    expect(server.ctx.sessions.stats.misses - misses).toBeLessThanOrEqual(1);
  });

  it('answers 401 at the next request after a sign-out', async () => {
    const account = await createCustomer(server, 'cache-logout');
    const token = await cachedSession(account);
    const other = await cachedSession(account);
    expect((await server.inject({ method: 'GET', url: '/api/logout', token })).statusCode).toBe(200);
    expect((await accountInfo(token)).statusCode).toBe(401);
    // The account's other session is looked up again, and is still live.
    expect((await accountInfo(other)).statusCode).toBe(200);
  });

  it('answers 401 at the next request after an administrator suspends the account, and its knowledge JWT with it', async () => {
    const account = await createCustomer(server, 'cache-suspend');
    const token = await cachedSession(account);
    const jwt = (await server.inject({ method: 'GET', url: '/api/token/jwt', token })).json().jwtToken as string;
    expect((await kbRoute(jwt)).statusCode).toBe(200);
    expect((await kbRoute(jwt)).statusCode).toBe(200);
    const res = await server.inject({
      method: 'POST',
      url: '/api/admin/customer_status',
      token: admin.token,
      payload: { userId: account.id, status: 'SUSPENDED' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await accountInfo(token)).statusCode).toBe(401);
    expect((await kbRoute(jwt)).statusCode).toBe(401);
  });

  it('answers 401 at the next request after a password reset', async () => {
    const account = await createCustomer(server, 'cache-reset');
    const token = await cachedSession(account);
    await server.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: account.email } });
    const code = await latestOutboxCode(server, account.email, 'reset-password');
    const reset = await server.inject({
      method: 'POST',
      url: '/api/reset_password',
      payload: { resetToken: code, newPassword: 'a brand new secret', mode: 'reset' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await accountInfo(token)).statusCode).toBe(401);
  });

  it('never serves a session past its expiry, though its entry is younger than the cache time', async () => {
    const account = await createCustomer(server, 'cache-expiry');
    const token = await cachedSession(account);
    // 12 hours and a minute on the server's clock; the cache's own (monotonic) clock has not moved.
    server.advance(12 * 60 * 60 * 1000 + 60_000);
    try {
      expect((await accountInfo(token)).statusCode).toBe(401);
    } finally {
      server.advance(-(12 * 60 * 60 * 1000 + 60_000));
    }
  });

  it('takes a role change at once, made by plain SQL outside any service (administrator → customer: 403, and back)', async () => {
    const other = await createAdmin(server);
    const token = await login(server, other.email, other.password);
    const setRole = (role: string) => server.ctx.db.updateTable('users').set({ user_type: role }).where('id', '=', other.id).execute();
    for (let round = 0; round < 5; round++) {
      expect((await adminRoute(token)).statusCode).toBe(200);
      expect((await adminRoute(token)).statusCode).toBe(200);
      await setRole('CUSTOMER');
      expect((await adminRoute(token)).statusCode).toBe(403);
      expect((await accountInfo(token)).statusCode).toBe(200);
      expect((await adminRoute(token)).statusCode).toBe(403);
      await setRole('ADMIN');
    }
  });

  it('takes an account deletion at once (401)', async () => {
    const account = await createCustomer(server, 'cache-delete');
    const token = await cachedSession(account);
    await server.ctx.db.deleteFrom('users').where('id', '=', account.id).execute();
    expect((await accountInfo(token)).statusCode).toBe(401);
  });
});
