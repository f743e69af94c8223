import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_FUNCTION_CODE } from '@parla/shared/schemas/functions';
import { createAdmin, createCustomer, type TestAccount } from '../../../test/accounts';
import { createTestServer, type TestServer } from '../../../test/harness';
import { findApprovedFunctions } from './functions.service';

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  alice = await createCustomer(server, 'alice');
  bob = await createCustomer(server, 'bob');
  admin = await createAdmin(server);
});

afterAll(async () => {
  await server.close();
});

interface Fn {
  id: string;
  name: string;
  code: string;
  approvalStatus: string;
  template: boolean;
  lastAdminUpdateDate: string | null;
  reviewReason: string | null;
  codeHash: string;
}

async function save(account: TestAccount, functions: unknown[]) {
  return server.inject({ method: 'POST', url: '/api/functions', token: account.token, payload: { functions } });
}

async function create(account: TestAccount, name = 'orders.py', code = EXAMPLE_FUNCTION_CODE): Promise<Fn> {
  const res = await save(account, [{ action: 'new', name, code, language: 'python' }]);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().functions as Fn[]).find((f) => f.name === name && !f.template)!;
}

async function decide(id: string, approve: boolean, reason?: string, codeHash?: string) {
  return server.inject({
    method: 'POST',
    url: '/api/admin/function_decision',
    token: admin.token,
    payload: { id, approve, reason, codeHash },
  });
}

async function list(account: TestAccount): Promise<Fn[]> {
  const res = await server.inject({ method: 'GET', url: '/api/functions', token: account.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().functions as Fn[];
}

describe('functions', () => {
  it('creates a function as Pending and lists the server templates flagged as templates', async () => {
    const fn = await create(alice);
    expect(fn).toMatchObject({ approvalStatus: 'Pending', template: false, lastAdminUpdateDate: null });
    const all = await list(alice);
    expect(all.filter((f) => f.template).length).toBeGreaterThanOrEqual(2);
    expect(all.filter((f) => !f.template).map((f) => f.id)).toEqual([fn.id]);
  });

  it('validates with the spec messages', async () => {
    const res = await save(alice, [{ action: 'new', name: ' ', code: '  ' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(expect.arrayContaining(['Name is a required field.', 'Code is a required field.']));
  });

  it('is approved by an administrator, with an audit trail, and the author sees it', async () => {
    const fn = await create(alice, 'approve-me.py');
    const review = await server.inject({ method: 'GET', url: '/api/admin/functions', token: admin.token });
    expect(review.statusCode).toBe(200);
    expect(review.json().functions[0].approvalStatus).toBe('Pending');
    expect(review.json().functions.find((f: Fn) => f.id === fn.id)).toMatchObject({ ownerEmail: alice.email });
    const ok = await decide(fn.id, true, 'Looks safe', fn.codeHash);
    expect(ok.statusCode, ok.body).toBe(200);
    const mine = (await list(alice)).find((f) => f.id === fn.id)!;
    expect(mine.approvalStatus).toBe('Approved');
    expect(mine.lastAdminUpdateDate).not.toBeNull();
    const history = await server.inject({ method: 'GET', url: `/api/admin/functions/${fn.id}/history`, token: admin.token });
    expect(history.json().history.map((h: { action: string }) => h.action)).toEqual(['function.approved', 'function.submitted']);
    expect(history.json().history[0]).toMatchObject({ actorEmail: admin.email, reason: 'Looks safe', codeHash: fn.codeHash });
    const realtime = await server.inject({ method: 'GET', url: '/api/realtime_functions', token: alice.token });
    expect(realtime.json().functions.map((f: Fn) => f.id)).toContain(fn.id);
  });

  it('returns an approved function to Pending when its code changes, but not when only its name does', async () => {
    const fn = await create(alice, 'edit-me.py');
    await decide(fn.id, true);
    const renamed = await save(alice, [{ action: 'update', id: fn.id, name: 'renamed.py', code: fn.code }]);
    expect((renamed.json().functions as Fn[]).find((f) => f.id === fn.id)!.approvalStatus).toBe('Approved');
    const edited = await save(alice, [{ action: 'update', id: fn.id, name: 'renamed.py', code: `${fn.code}\n# changed\n` }]);
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json().functions as Fn[]).find((f) => f.id === fn.id)!.approvalStatus).toBe('Pending');
    expect(await findApprovedFunctions(server.ctx, alice.id, [fn.id])).toEqual([]);
    const realtime = await server.inject({ method: 'GET', url: '/api/realtime_functions', token: alice.token });
    expect(realtime.json().functions.map((f: Fn) => f.id)).not.toContain(fn.id);
  });

  it('refuses a decision about code that changed since the reviewer opened it', async () => {
    const fn = await create(alice, 'race.py');
    await save(alice, [{ action: 'update', id: fn.id, name: 'race.py', code: 'def other():\n    return 1\n' }]);
    const res = await decide(fn.id, true, undefined, fn.codeHash);
    expect(res.statusCode).toBe(409);
    expect((await list(alice)).find((f) => f.id === fn.id)!.approvalStatus).toBe('Pending');
  });

  it('refuses to approve an already approved function with a clear message and changes nothing', async () => {
    const fn = await create(alice, 'approve-twice.py');
    expect((await decide(fn.id, true, 'Looks safe', fn.codeHash)).statusCode).toBe(200);
    const before = (await list(alice)).find((f) => f.id === fn.id)!;
    const again = await decide(fn.id, true, 'Again', fn.codeHash);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toMatchObject({ status: 'ERROR', errors: ['This function is already approved.'], failReason: 'ALREADY_APPROVED' });
    expect((await list(alice)).find((f) => f.id === fn.id)).toMatchObject({
      approvalStatus: 'Approved',
      reviewReason: 'Looks safe',
      lastAdminUpdateDate: before.lastAdminUpdateDate,
    });
    const history = await server.inject({ method: 'GET', url: `/api/admin/functions/${fn.id}/history`, token: admin.token });
    expect(history.json().history.map((h: { action: string }) => h.action)).toEqual(['function.approved', 'function.submitted']);
    // Rejecting (withdrawing) an approval stays possible.
    expect((await decide(fn.id, false, 'Withdrawn', fn.codeHash)).statusCode).toBe(200);
  });

  it('rejects with a reason the author sees; a rejection needs a reason', async () => {
    const fn = await create(alice, 'reject-me.py');
    expect((await decide(fn.id, false)).statusCode).toBe(400);
    expect((await decide(fn.id, false, 'Calls the network without need')).statusCode).toBe(200);
    expect((await list(alice)).find((f) => f.id === fn.id)).toMatchObject({
      approvalStatus: 'Rejected',
      reviewReason: 'Calls the network without need',
    });
  });

  it('keeps the review API for administrators', async () => {
    expect((await server.inject({ method: 'GET', url: '/api/admin/functions', token: alice.token })).statusCode).toBe(403);
    const fn = await create(alice, 'self-approve.py');
    const res = await server.inject({
      method: 'POST',
      url: '/api/admin/function_decision',
      token: alice.token,
      payload: { id: fn.id, approve: true },
    });
    expect(res.statusCode).toBe(403);
  });

  it('ignores approval fields sent by the author', async () => {
    const res = await save(alice, [{ action: 'new', name: 'sneaky.py', code: 'x = 1\n', approvalStatus: 'Approved' }]);
    expect((res.json().functions as Fn[]).find((f) => f.name === 'sneaky.py')!.approvalStatus).toBe('Pending');
  });

  it("answers 404 for another account's function and changes nothing", async () => {
    const fn = await create(alice, 'alice-only.py');
    const upd = await save(bob, [{ action: 'update', id: fn.id, name: 'x', code: 'x' }]);
    expect(upd.statusCode).toBe(404);
    const del = await save(bob, [{ action: 'delete', id: fn.id }]);
    expect(del.statusCode).toBe(404);
    expect((await list(bob)).filter((f) => !f.template)).toEqual([]);
    expect((await list(alice)).find((f) => f.id === fn.id)!.code).toBe(EXAMPLE_FUNCTION_CODE);
  });

  // Its avatars' links go by cascade (migration 0220): avatars.links.test.ts follows one.
  it('deletes a function', async () => {
    const fn = await create(alice, 'delete-me.py');
    const res = await save(alice, [{ action: 'delete', id: fn.id }]);
    expect(res.statusCode, res.body).toBe(200);
    expect((await list(alice)).find((f) => f.id === fn.id)).toBeUndefined();
  });
});
