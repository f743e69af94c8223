// Issue 17, item 6: a customer cancels their pending plan request (the administrators are told);
// an administrator has no subscription to change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let admin: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  admin = await createAdmin(server);
});
afterAll(() => server.close());

const upgrade = (token: string, payload: object) => server.inject({ method: 'POST', url: '/api/account_upgrade', token, payload });
const cancel = (token: string, payload: object = {}) =>
  server.inject({ method: 'POST', url: '/api/account_upgrade/cancel', token, payload });
const details = async (token: string) => (await server.inject({ method: 'GET', url: '/api/account_info', token })).json().accountDetails;
const outbox = (to: string) => server.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).execute();

describe('cancelling a plan request', () => {
  it('clears the pending request, keeps it in the history as cancelled and tells every administrator', async () => {
    const customer = await createCustomer(server, 'canceller');
    expect((await upgrade(customer.token, { subType: 2 })).statusCode).toBe(200);
    const res = await cancel(customer.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });
    expect((await details(customer.token)).requestedSubType).toBeNull();

    const stored = await server.ctx.db.selectFrom('subscription_requests').selectAll().where('user_id', '=', customer.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ requested_sub_type: 2, decision: 'CANCELLED', decided_by: customer.id });

    const mail = (await outbox(admin.email)).find(
      (m) => m.text_body.includes(customer.email) && /cancelled their plan change request/.test(m.subject),
    );
    expect(mail?.text_body).toContain('has cancelled the request to change to the PRO plan');

    // A new request can follow.
    expect((await upgrade(customer.token, { subType: 3 })).statusCode).toBe(200);
    expect((await details(customer.token)).requestedSubType).toBe(3);
  });

  it('answers 400 with a clear message when nothing is pending', async () => {
    const customer = await createCustomer(server, 'nothing');
    const res = await cancel(customer.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: ['There is no plan change request to cancel.'], failReason: 'NO_PENDING_REQUEST' });
  });

  it('refuses a body with unknown fields and needs a session', async () => {
    const customer = await createCustomer(server, 'strict');
    expect((await cancel(customer.token, { userId: admin.id })).statusCode).toBe(400);
    expect((await server.inject({ method: 'POST', url: '/api/account_upgrade/cancel', payload: {} })).statusCode).toBe(401);
  });

  it('cannot be decided by an administrator once cancelled', async () => {
    const customer = await createCustomer(server, 'late');
    expect((await upgrade(customer.token, { subType: 2 })).statusCode).toBe(200);
    expect((await cancel(customer.token)).statusCode).toBe(200);
    const pending = await server.ctx.db
      .selectFrom('subscription_requests')
      .select('id')
      .where('user_id', '=', customer.id)
      .where('decision', 'is', null)
      .execute();
    expect(pending).toHaveLength(0);
  });
});

describe('administrators and plans', () => {
  it('refuses a plan change request from an administrator', async () => {
    const res = await upgrade(admin.token, { subType: 2 });
    expect(res.statusCode).toBe(403);
    expect(res.json().errors).toEqual(['Administrators have no subscription plan to change.']);
  });
});
