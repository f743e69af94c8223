// Lists that scale (issue 21, decision 221): online users, knowledge items, customers and
// functions answer a page at a time once they pass a page (200 rows), every row is reached by
// following the pages, a search sees every row, and a small account gets its whole list at once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createCustomer, type TestAccount } from '../../test/accounts';
import { createTestServer, type TestServer } from '../../test/harness';

const MANY = 450;
let server: TestServer;
let big: TestAccount;
let small: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  big = await createCustomer(server, 'big');
  small = await createCustomer(server, 'small');
  admin = await createAdmin(server);
});

afterAll(async () => {
  await server.close();
});

const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000);

/** Follows `nextOffset` from 0; every page's rows, in order. */
async function allPages<T>(
  read: (offset: number) => Promise<{ rows: T[]; nextOffset: number | null }>,
): Promise<{ rows: T[]; pages: number }> {
  const rows: T[] = [];
  let offset: number | null = 0;
  let pages = 0;
  while (offset !== null) {
    const page: { rows: T[]; nextOffset: number | null } = await read(offset);
    rows.push(...page.rows);
    offset = page.nextOffset;
    pages++;
  }
  return { rows, pages };
}

describe('online users', () => {
  beforeAll(async () => {
    const rows = Array.from({ length: MANY }, (_, i) => ({
      id: randomUUID(),
      owner_id: big.id,
      avatar_id: 'avatar-big',
      avatar_name: 'Big',
      avatar_type: '2d',
      user_id: `visitor-${i}`,
      user_name: `Visitor ${String(i).padStart(3, '0')}`,
      started_at: at(i),
      last_seen_at: at(i),
    }));
    await server.ctx.db.insertInto('conversations').values(rows).execute();
    await server.ctx.db
      .insertInto('conversations')
      .values({
        id: randomUUID(),
        owner_id: small.id,
        avatar_id: 'avatar-small',
        avatar_name: 'Small',
        avatar_type: '2d',
        user_id: 'v',
        user_name: 'Only visitor',
        started_at: at(0),
        last_seen_at: at(0),
      })
      .execute();
  });

  const mine = (account: TestAccount, body: Record<string, unknown>) =>
    server.inject({ method: 'POST', url: '/api/list_my_online_users', token: account.token, payload: { mode: 'get', ...body } });

  it("pages a customer's online users, newest first, and every one is reached once", async () => {
    const first = await mine(big, {});
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().onlineUsers).toHaveLength(200);
    expect(first.json().onlineUsers[0].userName).toBe(`Visitor ${MANY - 1}`);
    expect(first.json().nextOffset).toBe(200);
    const all = await allPages(async (offset) => {
      const res = (await mine(big, { offset })).json();
      return { rows: res.onlineUsers as { sessionId: string; userName: string }[], nextOffset: res.nextOffset };
    });
    expect(all.pages).toBe(3);
    expect(new Set(all.rows.map((u) => u.sessionId)).size).toBe(MANY);
    expect(all.rows.some((u) => u.userName === 'Only visitor')).toBe(false);
  });

  it('gives a small account its whole list in one answer, as before', async () => {
    const res = await mine(small, {});
    expect(res.json()).toMatchObject({ status: 'OK', nextOffset: null });
    expect(res.json().onlineUsers.map((u: { userName: string }) => u.userName)).toEqual(['Only visitor']);
  });

  it("pages the administrators' list of every conversation", async () => {
    const all = await allPages(async (offset) => {
      const res = await server.inject({
        method: 'POST',
        url: '/api/list_online_users',
        token: admin.token,
        payload: { mode: 'get', offset, limit: 300 },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { rows: res.json().onlineUsers as { sessionId: string }[], nextOffset: res.json().nextOffset };
    });
    expect(all.rows.length).toBeGreaterThanOrEqual(MANY + 1);
    expect(all.pages).toBe(2);
  });

  it('refuses a bad page with a message, not a 500', async () => {
    for (const body of [{ limit: 0 }, { limit: 1001 }, { offset: -1 }, { limit: 'many' }]) {
      const res = await mine(big, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors[0]).toMatch(/^(limit|offset) must be/);
    }
  });
});

describe('knowledge items of a collection', () => {
  let collectionId: string;
  const jwt = async (account: TestAccount) =>
    `Bearer ${(await server.inject({ method: 'GET', url: '/api/token/jwt', token: account.token })).json().jwtToken as string}`;
  const kb = async (account: TestAccount, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    server.inject({ method, url, appKey: null, headers: { authorization: await jwt(account) }, ...(payload ? { payload } : {}) });
  beforeAll(async () => {
    const res = await kb(big, 'POST', '/kb/v1/collections', { name: 'Many items' });
    collectionId = res.json().id as string;
    const rows = Array.from({ length: MANY }, (_, i) => ({
      id: randomUUID(),
      owner_id: big.id,
      collection_id: collectionId,
      name: `Item ${String(i).padStart(3, '0')}`,
      kind: 'text' as const,
      content: `Text ${i}`,
      status: 'ready' as const,
      created_at: at(i),
      updated_at: at(i),
    }));
    await server.ctx.db.insertInto('knowledge_items').values(rows).execute();
  });

  const items = (query: string, account = big) => kb(account, 'GET', `/kb/v1/collections/${collectionId}/items${query}`);

  it('answers the first 200 items, newest first, and the rest by offset', async () => {
    const first = await items('');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toHaveLength(200);
    expect(first.json()[0].name).toBe(`Item ${MANY - 1}`);
    const last = await items('?offset=400&limit=200');
    expect(last.json().map((i: { name: string }) => i.name)).toEqual(
      Array.from({ length: 50 }, (_, i) => `Item ${String(49 - i).padStart(3, '0')}`),
    );
  });

  it('searches every item of the collection by name', async () => {
    const res = await items('?search=ITEM 007');
    expect(res.json().map((i: { name: string }) => i.name)).toEqual(['Item 007']);
    expect((await items('?search=%25')).json()).toEqual([]);
  });

  it("answers 404 for another account's collection and 400 for a bad page", async () => {
    expect((await items('', small)).statusCode).toBe(404);
    const bad = await items('?limit=5000');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual(['limit must be at most 1000']);
  });

  it('still counts every item of the collection', async () => {
    const res = await kb(big, 'GET', '/kb/v1/collections');
    expect(res.json().find((c: { id: string }) => c.id === collectionId).item_count).toBe(MANY);
  });
});

describe('customers (administrators)', () => {
  beforeAll(async () => {
    const rows = Array.from({ length: MANY }, (_, i) => ({
      id: randomUUID(),
      email: `paged-${String(i).padStart(3, '0')}@example.com`,
      password_hash: 'x',
      first_name: 'Paged',
      last_name: `Customer ${i}`,
      created_at: at(i),
    }));
    await server.ctx.db.insertInto('users').values(rows).execute();
  });

  const customers = (query: string) => server.inject({ method: 'GET', url: `/api/admin/customers${query}`, token: admin.token });

  it('pages every customer and says when more follow', async () => {
    const first = await customers('');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ truncated: true, nextOffset: 200 });
    expect(first.json().customers).toHaveLength(200);
    const all = await allPages(async (offset) => {
      const res = (await customers(`?offset=${offset}`)).json();
      return { rows: res.customers as { email: string }[], nextOffset: res.nextOffset };
    });
    const emails = new Set(all.rows.map((c) => c.email));
    expect(emails.size).toBe(all.rows.length);
    for (const i of [0, 200, 449]) expect(emails.has(`paged-${String(i).padStart(3, '0')}@example.com`)).toBe(true);
  });

  it('searches every customer, not only the first page', async () => {
    const res = await customers('?search=PAGED-000@');
    expect(res.json()).toMatchObject({ truncated: false, nextOffset: null });
    expect(res.json().customers.map((c: { email: string }) => c.email)).toEqual(['paged-000@example.com']);
  });

  it('stays closed to customers', async () => {
    expect((await server.inject({ method: 'GET', url: '/api/admin/customers?offset=200', token: big.token })).statusCode).toBe(403);
  });
});

describe('functions', () => {
  beforeAll(async () => {
    const rows = Array.from({ length: MANY }, (_, i) => ({
      id: randomUUID(),
      owner_id: big.id,
      name: `fn_${String(i).padStart(3, '0')}.py`,
      code: `x = ${i}\n`,
      code_sha256: `hash-${i}`,
      created_at: at(i),
      updated_at: at(i),
    }));
    await server.ctx.db.insertInto('functions').values(rows).execute();
    await server.inject({
      method: 'POST',
      url: '/api/functions',
      token: small.token,
      payload: { functions: [{ action: 'new', name: 'small.py', code: 'y = 1\n' }] },
    });
  });

  const list = (account: TestAccount, query = '') => server.inject({ method: 'GET', url: `/api/functions${query}`, token: account.token });
  type Fn = { id: string; name: string; template: boolean; ownerEmail?: string; approvalStatus: string };

  it("pages a customer's functions, the templates with the first page only", async () => {
    const first = await list(big);
    expect(first.statusCode, first.body).toBe(200);
    const fns = first.json().functions as Fn[];
    expect(fns.filter((f) => !f.template)).toHaveLength(200);
    expect(fns.filter((f) => f.template).length).toBeGreaterThanOrEqual(2);
    expect(first.json().nextOffset).toBe(200);
    const all = await allPages(async (offset) => {
      const res = (await list(big, `?offset=${offset}`)).json();
      return { rows: (res.functions as Fn[]).filter((f) => !f.template), nextOffset: res.nextOffset };
    });
    expect(new Set(all.rows.map((f) => f.id)).size).toBe(MANY);
    expect(((await list(big, '?offset=200')).json().functions as Fn[]).some((f) => f.template)).toBe(false);
  });

  it('searches every function of the account by name', async () => {
    const res = await list(big, '?search=FN_003');
    expect((res.json().functions as Fn[]).filter((f) => !f.template).map((f) => f.name)).toEqual(['fn_003.py']);
  });

  it('gives a small account its whole list, and never another account’s functions', async () => {
    const res = await list(small);
    expect(res.json().nextOffset).toBeNull();
    expect((res.json().functions as Fn[]).filter((f) => !f.template).map((f) => f.name)).toEqual(['small.py']);
  });

  it('pages the review list, Pending first, and searches it by owner email', async () => {
    const first = await server.inject({ method: 'GET', url: '/api/admin/functions', token: admin.token });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().functions).toHaveLength(200);
    expect(first.json().nextOffset).toBe(200);
    const all = await allPages(async (offset) => {
      const res = (await server.inject({ method: 'GET', url: `/api/admin/functions?offset=${offset}`, token: admin.token })).json();
      return { rows: res.functions as Fn[], nextOffset: res.nextOffset };
    });
    expect(all.rows).toHaveLength(MANY + 1);
    const found = await server.inject({
      method: 'GET',
      url: `/api/admin/functions?search=${encodeURIComponent(small.email)}`,
      token: admin.token,
    });
    expect((found.json().functions as Fn[]).map((f) => f.name)).toEqual(['small.py']);
    expect((await server.inject({ method: 'GET', url: '/api/admin/functions?limit=-3', token: admin.token })).statusCode).toBe(400);
  });
});
