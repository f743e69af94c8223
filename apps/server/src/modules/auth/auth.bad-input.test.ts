import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomer } from '../../../test/accounts';
import { assertNoServerErrors } from '../../../test/bad-input';
import { createTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe('malformed bodies on every endpoint of sign-in and registration', () => {
  it('never answer 5xx and always answer the contract error shape', async () => {
    const admin = await createAdmin(server);
    const customer = await createCustomer(server);
    const targets = [
      { method: 'POST' as const, url: '/api/login', keys: ['email', 'password', 'rememberMe', 'adminSessionId'] },
      {
        method: 'POST' as const,
        url: '/api/register',
        keys: ['firstName', 'lastName', 'companyName', 'mobileNumber', 'email', 'password'],
      },
      { method: 'POST' as const, url: '/api/email_verification', keys: ['verificationCode', 'mode', 'password'] },
      { method: 'POST' as const, url: '/api/forgot_password', keys: ['email'] },
      { method: 'POST' as const, url: '/api/reset_password', keys: ['resetToken', 'newPassword', 'mode'] },
      { method: 'POST' as const, url: '/api/admin/impersonate', keys: ['userId'], token: admin.token },
      { method: 'GET' as const, url: '/api/token/jwt', keys: [], token: customer.token },
      { method: 'GET' as const, url: '/api/logout', keys: [], token: 'not-a-real-token' },
    ];
    let tried = 0;
    for (const t of targets) tried += await assertNoServerErrors(server, t, 40);
    expect(tried).toBeGreaterThan(500);
  }, 120_000);
});
