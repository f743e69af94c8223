import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomer } from '../../../test/accounts';
import { assertNoServerErrors } from '../../../test/bad-input';
import { createTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

describe('malformed bodies on every endpoint of account, billing, OAuth configs and the customers desk', () => {
  it('never answer 5xx and always answer the contract error shape', async () => {
    const admin = await createAdmin(server);
    const customer = await createCustomer(server);
    const targets = [
      { method: 'GET' as const, url: '/api/account_info', keys: [], token: customer.token },
      { method: 'GET' as const, url: '/api/account_stats?startDate=0&endDate=1', keys: [], token: customer.token },
      { method: 'POST' as const, url: '/api/account_upgrade', keys: ['subType', 'dhType'], token: customer.token },
      { method: 'GET' as const, url: '/api/list_oauthapp', keys: [], token: customer.token },
      {
        method: 'POST' as const,
        url: '/api/add_oauthapp',
        keys: ['appId', 'appName', 'partner', 'clientId', 'clientSecret', 'oauthURL', 'tokenIssueURL'],
        token: customer.token,
      },
      { method: 'POST' as const, url: '/api/del_oauthapp', keys: ['appId', 'mode'], token: customer.token },
      { method: 'GET' as const, url: '/api/admin/customers?search=x', keys: [], token: admin.token },
      { method: 'POST' as const, url: '/api/admin/subscription_decision', keys: ['userId', 'approve'], token: admin.token },
      { method: 'POST' as const, url: '/api/admin/customer_status', keys: ['userId', 'status'], token: admin.token },
      { method: 'POST' as const, url: '/api/admin/customer_status', keys: ['userId', 'status'], token: customer.token },
    ];
    let tried = 0;
    for (const t of targets) tried += await assertNoServerErrors(server, t, 40);
    expect(tried).toBeGreaterThan(500);
  }, 180_000);
});
