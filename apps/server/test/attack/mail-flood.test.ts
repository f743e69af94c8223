// Mail flooding (issue 20, finding 7). Register and forgot password, called in a loop with one
// victim's address, must not turn the server into a mail cannon: one mail of each kind per
// address per interval (a few verification mails per hour, decision 011), and the caller's answer is the same whether a mail went out or not.
// The interval is kept in the database, so a second server on the same database agrees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFY_MAIL_WINDOW_MS, VERIFY_MAILS_PER_WINDOW } from '@parla/shared/limits';
import { build } from '../../src/app';
import { settled } from '../../src/modules/auth/auth.service';
import { createCustomer, uniqueEmail } from '../accounts';
import { createTestServer, TEST_APP_KEY, TEST_SECRET_KEY, type TestServer } from '../harness';

let server: TestServer;
const TRIES = 20;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

async function mailsTo(email: string, subject: RegExp): Promise<number> {
  await settled();
  const rows = await server.ctx.db.selectFrom('mail_outbox').select('subject').where('to_address', '=', email).execute();
  return rows.filter((r) => subject.test(r.subject)).length;
}

const register = (email: string) =>
  server.inject({
    method: 'POST',
    url: '/api/register',
    payload: { firstName: 'Flood', lastName: 'Test', email, password: 'whatever password' },
  });
const forgot = (email: string) => server.inject({ method: 'POST', url: '/api/forgot_password', payload: { email } });

describe('mail flooding', () => {
  it('sends a few verification mails per window however often an unverified address is registered', async () => {
    const email = uniqueEmail('flood-verify');
    for (let i = 0; i < TRIES; i++) {
      const res = await register(email);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('{"status":"OK"}');
    }
    expect(await mailsTo(email, /Verify your email/)).toBe(VERIFY_MAILS_PER_WINDOW);
    server.advance(VERIFY_MAIL_WINDOW_MS + 1000);
    for (let i = 0; i < TRIES; i++) await register(email);
    expect(await mailsTo(email, /Verify your email/)).toBe(2 * VERIFY_MAILS_PER_WINDOW);
  });

  it('sends one already-registered mail per interval to a verified address, answering as for a new one', async () => {
    const account = await createCustomer(server, 'flood-known');
    const fresh = await register(uniqueEmail('flood-new'));
    for (let i = 0; i < TRIES; i++) {
      const res = await register(account.email);
      expect(res.statusCode).toBe(fresh.statusCode);
      expect(res.body).toBe(fresh.body);
    }
    expect(await mailsTo(account.email, /Your Parla account/)).toBe(1);
  });

  it('sends one reset mail per interval, answering exactly as for an unknown address', async () => {
    const account = await createCustomer(server, 'flood-reset');
    const unknown = await forgot(uniqueEmail('flood-ghost'));
    for (let i = 0; i < TRIES; i++) {
      const res = await forgot(account.email);
      expect(res.statusCode).toBe(unknown.statusCode);
      expect(res.body).toBe(unknown.body);
      expect(res.headers['content-type']).toBe(unknown.headers['content-type']);
    }
    expect(await mailsTo(account.email, /Reset your/)).toBe(1);
  });

  it('shares the verification window between registration and an unverified account signing in', async () => {
    const email = uniqueEmail('flood-login');
    await register(email);
    for (let i = 0; i < 5; i++) {
      const res = await server.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'whatever password' } });
      expect(res.statusCode).toBe(403);
    }
    expect(await mailsTo(email, /Verify your email/)).toBe(VERIFY_MAILS_PER_WINDOW);
  });

  it('holds the interval across servers sharing the database', async () => {
    const second = await build({
      config: server.ctx.config,
      database: server.ctx.database,
      secretKey: TEST_SECRET_KEY,
      serveWeb: false,
      now: server.ctx.now,
    });
    try {
      await second.app.ready();
      const account = await createCustomer(server, 'flood-two');
      const viaSecond = () =>
        second.app.inject({
          method: 'POST',
          url: '/api/forgot_password',
          headers: { authorization: `Bearer ${TEST_APP_KEY}` },
          payload: { email: account.email },
        });
      for (let i = 0; i < 5; i++) {
        expect((await forgot(account.email)).statusCode).toBe(200);
        expect((await viaSecond()).statusCode).toBe(200);
      }
      expect(await mailsTo(account.email, /Reset your/)).toBe(1);
    } finally {
      await second.app.close();
    }
  });
});
