import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomer, login, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let admin: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  admin = await createAdmin(server);
});
afterAll(async () => {
  await server.close();
});

const ADMIN_ROUTES = [
  { method: 'GET' as const, url: '/api/admin/customers', payload: undefined },
  { method: 'POST' as const, url: '/api/admin/subscription_decision', payload: { userId: 'x', approve: true } },
  { method: 'POST' as const, url: '/api/admin/customer_status', payload: { userId: 'x', status: 'SUSPENDED' } },
  { method: 'POST' as const, url: '/api/admin/impersonate', payload: { userId: 'x' } },
];

function decide(userId: string, approve: boolean, token = admin.token) {
  return server.inject({ method: 'POST', url: '/api/admin/subscription_decision', token, payload: { userId, approve } });
}

function setStatus(userId: string, status: string, token = admin.token) {
  return server.inject({ method: 'POST', url: '/api/admin/customer_status', token, payload: { userId, status } });
}

async function customers(search?: string) {
  const res = await server.inject({
    method: 'GET',
    url: `/api/admin/customers${search ? `?search=${encodeURIComponent(search)}` : ''}`,
    token: admin.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().customers as {
    id: string;
    email: string;
    status: string;
    subscriptionType: number;
    requestedSubType: number | null;
    requestedAt: string | null;
  }[];
}

async function lastMail(to: string) {
  return server.ctx.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
}

describe('roles', () => {
  it('answers 403 to a customer on every admin route, and 401 without a session', async () => {
    const customer = await createCustomer(server, 'nosy');
    for (const route of ADMIN_ROUTES) {
      const res = await server.inject({ ...route, token: customer.token });
      expect(res.statusCode, route.url).toBe(403);
      expect(res.json().status).toBe('ERROR');
      const anonymous = await server.inject({ ...route });
      expect(anonymous.statusCode, route.url).toBe(401);
    }
  });
});

describe('customer list', () => {
  it('lists customers only, pending requests first, and searches by name or email', async () => {
    const plain = await createCustomer(server, 'plainlist');
    const asking = await createCustomer(server, 'askinglist');
    await server.inject({ method: 'POST', url: '/api/account_upgrade', token: asking.token, payload: { subType: 3 } });
    const list = await customers();
    expect(list.some((c) => c.email === admin.email)).toBe(false);
    expect(list[0]).toMatchObject({ email: asking.email, requestedSubType: 3, subscriptionType: 1, status: 'ACTIVE' });
    expect(list[0]!.requestedAt).not.toBeNull();
    expect((await customers(plain.email)).map((c) => c.email)).toEqual([plain.email]);
    expect((await customers('Test plainlist')).map((c) => c.email)).toEqual([plain.email]);
    expect(await customers('%_nobody_%')).toEqual([]);
  });

  it('refuses an over-long search', async () => {
    const res = await server.inject({ method: 'GET', url: `/api/admin/customers?search=${'a'.repeat(101)}`, token: admin.token });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(['Search must be at most 100 characters']);
  });
});

describe('plan decisions', () => {
  it('approves a request: the plan changes, the request clears and the customer is mailed', async () => {
    const customer = await createCustomer(server, 'approve');
    await server.inject({ method: 'POST', url: '/api/account_upgrade', token: customer.token, payload: { subType: 2 } });
    server.advance(1000);
    const res = await decide(customer.id, true);
    expect(res.statusCode, res.body).toBe(200);
    const details = (await server.inject({ method: 'GET', url: '/api/account_info', token: customer.token })).json().accountDetails;
    expect(details.licenses.webgl.subscriptionType).toBe(2);
    expect(details.requestedSubType).toBeNull();
    expect(details.usage).toMatchObject({ plan: 'PRO', avatars: { limit: 25 }, minutes: { limit: 2000 } });
    expect(Date.parse(details.subscribedSince)).toBeGreaterThan(Date.parse(details['Create Date']));
    const mail = await lastMail(customer.email);
    expect(mail.subject).toMatch(/now PRO/);
    expect(mail.text_body).toContain('http://parla.test/react/account');
    const stored = await server.ctx.db
      .selectFrom('subscription_requests')
      .selectAll()
      .where('user_id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ decision: 'APPROVED', decided_by: admin.id });
    const again = await decide(customer.id, true);
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual(['This customer has no pending plan change.']);
  });

  it('declines a request: the plan stays, the customer is mailed and may ask again', async () => {
    const customer = await createCustomer(server, 'decline');
    await server.inject({ method: 'POST', url: '/api/account_upgrade', token: customer.token, payload: { subType: 4 } });
    expect((await decide(customer.id, false)).statusCode).toBe(200);
    const details = (await server.inject({ method: 'GET', url: '/api/account_info', token: customer.token })).json().accountDetails;
    expect(details.licenses.webgl.subscriptionType).toBe(1);
    expect(details.requestedSubType).toBeNull();
    expect((await lastMail(customer.email)).text_body).toMatch(/declined/);
    const retry = await server.inject({ method: 'POST', url: '/api/account_upgrade', token: customer.token, payload: { subType: 3 } });
    expect(retry.statusCode).toBe(200);
  });

  it('answers 404 for an unknown id or an administrator, 400 for bad bodies', async () => {
    expect((await decide('no-such-user', true)).statusCode).toBe(404);
    expect((await decide(admin.id, true)).statusCode).toBe(404);
    const bad = await server.inject({
      method: 'POST',
      url: '/api/admin/subscription_decision',
      token: admin.token,
      payload: { userId: '', approve: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual(expect.arrayContaining(['User is required', 'approve must be true or false']));
  });
});

describe('suspension', () => {
  it('ends the customer\u2019s sessions at once, refuses sign-in, and reactivation lets them sign in again', async () => {
    const customer = await createCustomer(server, 'suspend');
    expect((await server.inject({ method: 'GET', url: '/api/account_info', token: customer.token })).statusCode).toBe(200);
    expect((await setStatus(customer.id, 'SUSPENDED')).statusCode).toBe(200);
    const after = await server.inject({ method: 'GET', url: '/api/account_info', token: customer.token });
    expect(after.statusCode).toBe(401);
    const signIn = await server.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: customer.email, password: customer.password },
    });
    expect(signIn.statusCode).toBe(403);
    const proxy = await server.inject({
      method: 'POST',
      url: '/api/admin/impersonate',
      token: admin.token,
      payload: { userId: customer.id },
    });
    expect(proxy.statusCode).toBe(400);
    expect((await customers(customer.email))[0]!.status).toBe('SUSPENDED');

    expect((await setStatus(customer.id, 'ACTIVE')).statusCode).toBe(200);
    // The old session stays ended; a new sign-in works.
    expect((await server.inject({ method: 'GET', url: '/api/account_info', token: customer.token })).statusCode).toBe(401);
    const token = await login(server, customer.email, customer.password);
    expect((await server.inject({ method: 'GET', url: '/api/account_info', token })).statusCode).toBe(200);
  });

  it('cannot suspend an administrator, and says so as not found', async () => {
    expect((await setStatus(admin.id, 'SUSPENDED')).statusCode).toBe(404);
    expect((await server.inject({ method: 'GET', url: '/api/account_info', token: admin.token })).statusCode).toBe(200);
  });

  it('refuses an unknown status', async () => {
    const res = await setStatus('x', 'DELETED');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(["status must be 'ACTIVE' or 'SUSPENDED'"]);
  });

  it('never answers a 5xx to arbitrary bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/admin/subscription_decision', '/api/admin/customer_status'),
        fc.oneof(fc.anything(), fc.record({ userId: fc.oneof(fc.string(), fc.integer()), approve: fc.anything(), status: fc.string() })),
        async (url, body) => {
          const res = await server.inject({
            method: 'POST',
            url,
            token: admin.token,
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify(body) ?? 'null',
          });
          expect(res.statusCode).toBeLessThan(500);
          expect([400, 404]).toContain(res.statusCode);
        },
      ),
      { numRuns: 100 },
    );
  });
});
