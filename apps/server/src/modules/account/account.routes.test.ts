import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { newId } from '../../lib/tokens';
import { endConversation, startConversation } from '../conversations/conversations.repository';
import { monthOf } from './usage';

let server: TestServer;
let admin: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  admin = await createAdmin(server);
});
afterAll(async () => {
  await server.close();
});

function info(token: string) {
  return server.inject({ method: 'GET', url: '/api/account_info', token });
}

function upgrade(token: string, payload: unknown) {
  return server.inject({ method: 'POST', url: '/api/account_upgrade', token, payload: payload as object });
}

async function outbox(to: string) {
  return server.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('created_at').execute();
}

describe('account info', () => {
  it('gives the account details of spec 1 with the plan and its usage', async () => {
    const customer = await createCustomer(server, 'details');
    const res = await info(customer.token);
    expect(res.statusCode, res.body).toBe(200);
    const details = res.json().accountDetails;
    expect(details).toMatchObject({
      Id: customer.id,
      Name: 'Test details',
      Email: customer.email,
      Status: 'ACTIVE',
      userType: 'CUSTOMER',
      licenses: { webgl: { subscriptionType: 1 } },
      requestedSubType: null,
      usage: { plan: 'FREE', avatars: { used: 0, limit: 2 }, minutes: { used: 0, limit: 30 } },
    });
    for (const key of ['Create Date', 'Last Updated', 'subscribedSince']) expect(Date.parse(details[key])).not.toBeNaN();
    expect(JSON.stringify(details)).not.toMatch(/password|hash/i);
  });

  it('counts this month\u2019s conversation minutes against the plan', async () => {
    const customer = await createCustomer(server, 'usage');
    const now = server.ctx.now().getTime();
    const from = Math.max(monthOf(new Date(now)).start.getTime(), now - 5 * 60_000);
    const id = newId();
    await startConversation(server.ctx.db, {
      id,
      owner_id: customer.id,
      avatar_id: 'a1',
      avatar_name: 'Helper',
      avatar_type: 'image',
      user_id: 'u1',
      user_name: 'Visitor',
      started_at: new Date(from),
      last_seen_at: new Date(from),
    });
    await endConversation(server.ctx.db, id, new Date(now), 'bye');
    const usage = (await info(customer.token)).json().accountDetails.usage;
    expect(usage.minutes.used).toBeCloseTo((now - from) / 60_000, 1);
    expect(usage.minutes.periodStart).toBe(monthOf(new Date(now)).start.toISOString());
  });

  it('needs a session', async () => {
    expect((await server.inject({ method: 'GET', url: '/api/account_info' })).statusCode).toBe(401);
  });
});

describe('plan change requests', () => {
  it('stores the request, mails every administrator and shows it as requested', async () => {
    const customer = await createCustomer(server, 'upgrader');
    const res = await upgrade(customer.token, { subType: 2, dhType: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });

    const details = (await info(customer.token)).json().accountDetails;
    expect(details.requestedSubType).toBe(2);
    expect(details.licenses.webgl.subscriptionType).toBe(1);

    const mails = await outbox(admin.email);
    const mail = mails.find((m) => m.text_body.includes(customer.email));
    expect(mail?.subject).toMatch(/PRO/);
    expect(mail?.text_body).toContain('from: FREE (USD 0/month)');
    expect(mail?.text_body).toContain('to:   PRO (USD 399/month)');
    expect(mail?.text_body).toContain('http://parla.test/react/customers');

    const stored = await server.ctx.db.selectFrom('subscription_requests').selectAll().where('user_id', '=', customer.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ from_sub_type: 1, requested_sub_type: 2, dh_type: 2, decision: null });
  });

  it('refuses a second request while one is pending, and the current plan', async () => {
    const customer = await createCustomer(server, 'twice');
    const same = await upgrade(customer.token, { subType: 1 });
    expect(same.statusCode).toBe(400);
    expect(same.json().errors).toEqual(['This is already your subscription plan.']);

    expect((await upgrade(customer.token, { subType: 3 })).statusCode).toBe(200);
    const again = await upgrade(customer.token, { subType: 4 });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 7, failReason: 'REQUEST_PENDING' });
    expect((await info(customer.token)).json().accountDetails.requestedSubType).toBe(3);
  });

  it('keeps one pending request when two arrive at once', async () => {
    const customer = await createCustomer(server, 'race');
    const answers = await Promise.all([upgrade(customer.token, { subType: 2 }), upgrade(customer.token, { subType: 3 })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const pending = await server.ctx.db.selectFrom('subscription_requests').selectAll().where('user_id', '=', customer.id).execute();
    expect(pending).toHaveLength(1);
  });

  it('gives clear messages for bad bodies', async () => {
    const customer = await createCustomer(server, 'badbody');
    const cases: [unknown, string][] = [
      [{}, 'Choose a subscription plan'],
      [{ subType: 'PRO' }, 'Choose a subscription plan'],
      [{ subType: 0 }, 'Choose one of the plans: FREE, STARTER, PRO or ENTERPRISE'],
      [{ subType: 9 }, 'Choose one of the plans: FREE, STARTER, PRO or ENTERPRISE'],
      [{ subType: 2.5 }, 'Choose one of the plans: FREE, STARTER, PRO or ENTERPRISE'],
      [{ subType: 2, dhType: 'x' }, 'dhType must be a number'],
    ];
    for (const [body, message] of cases) {
      const res = await upgrade(customer.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors).toContain(message);
    }
    const notJson = await server.inject({
      method: 'POST',
      url: '/api/account_upgrade',
      token: customer.token,
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().errors).toEqual(['The request body is not valid JSON.']);
  });

  it('never answers a 5xx to arbitrary bodies', async () => {
    const customer = await createCustomer(server, 'fuzz');
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (body) => {
        const res = await server.inject({
          method: 'POST',
          url: '/api/account_upgrade',
          token: customer.token,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(body) ?? 'null',
        });
        expect(res.statusCode).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });
});
