// Two server processes over one database (decision 630): what is addressed to a live conversation,
// an account's conversations or a pipeline node reaches the process holding it, whichever process
// the request reached. Both "processes" run in this test process over the same database, each
// with its own runtime and process id; the scale test (test/scale/) does it with real processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus } from '@parla/shared/enums';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { createAdmin, createCustomer, type TestAccount } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars } from '../../../test/conversation-client';
import { createTestServer, type TestServer } from '../../../test/harness';
import { RUN_TS } from '../../../test/run-ts';

const NODE_MAIN = join(dirname(fileURLToPath(import.meta.url)), '../../node-main.ts');
const SECRET = 'node-secret-0123456789abcdef';

let a: TestServer;
let b: TestServer;
let hostA: string;
let alice: TestAccount;
let bob: TestAccount;
let admin: TestAccount;
const children: ChildProcess[] = [];

beforeAll(async () => {
  a = await createTestServer({ NODE_SECRET: SECRET });
  b = await createTestServer({ NODE_SECRET: SECRET }, { sameDatabaseAs: a });
  hostA = await listen(a);
  alice = await createCustomer(a, 'delivery');
  bob = await createCustomer(a, 'delivery-suspended');
  admin = await createAdmin(a);
  for (const s of [a, b]) testAvatars(s, { echo: { ownerId: alice.id }, bobs: { ownerId: bob.id } });
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await b.close();
  await a.close();
});

const push = (s: TestServer, id: string, token: string | undefined, message = 'from the other process') =>
  s.inject({
    method: 'POST',
    url: `/api/conversation/callback/${id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`,
    payload: { message },
  });

describe('cross-process delivery', () => {
  it("delivers a REST endpoint's callback posted to the process that does not hold the conversation", async () => {
    const c = await connect(hostA, { avatarId: 'echo' });
    const { sessionId } = await c.next('ready');
    expect(b.app.runtime.get(sessionId)).toBeUndefined();
    const token = a.app.runtime.get(sessionId)!.callbackToken;
    expect((await push(b, sessionId, token)).json()).toEqual({ status: 'OK' });
    expect((await c.next('assistant_done')).text).toBe('from the other process');
  });

  it("refuses a callback on the other process without the conversation's own token, or for an ended conversation", async () => {
    const c = await connect(hostA, { avatarId: 'echo' });
    const { sessionId } = await c.next('ready');
    const token = a.app.runtime.get(sessionId)!.callbackToken;
    const other = await connect(hostA, { avatarId: 'echo' }, { type: 'hello', deviceId: 'device-2', userName: 'Bo' });
    const { sessionId: otherId } = await other.next('ready');
    const tries = [
      await push(b, sessionId, undefined),
      await push(b, sessionId, ''),
      await push(b, sessionId, a.app.runtime.get(otherId)!.callbackToken),
      await push(b, randomUUID(), token),
    ];
    expect(tries.map((r) => r.statusCode)).toEqual([404, 404, 404, 404]);
    c.ws.close();
    await c.closed;
    await expect.poll(() => a.app.runtime.get(sessionId)).toBeUndefined();
    expect((await push(b, sessionId, token)).statusCode).toBe(404);
    expect(other.messages.filter((m) => m.type === 'assistant_done')).toHaveLength(0);
  });

  it('ends the conversations of an account suspended through the other process', async () => {
    const c = await connect(hostA, { avatarId: 'bobs' });
    await c.next('ready');
    const res = await b.inject({
      method: 'POST',
      url: '/api/admin/customer_status',
      token: admin.token,
      payload: { userId: bob.id, status: AccountStatus.Suspended },
    });
    expect(res.statusCode).toBe(200);
    expect((await c.closed).code).toBe(CLOSE_CODES.authenticationFailed);
  });

  it('disconnects a pipeline node connected to another process when an administrator deletes it here', async () => {
    const child = spawn(
      process.execPath,
      [RUN_TS, NODE_MAIN, '--server', `http://${hostA}`, '--name', 'delivery-node', '--capacity', '2'],
      {
        env: { PATH: process.env.PATH ?? '', NODE_SECRET: SECRET },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const node = async () => {
      const res = await b.inject({ method: 'GET', url: '/api/list_vps', token: admin.token });
      return (res.json().vpsList as { name: string; id: string; status: string }[]).find((v) => v.name === 'delivery-node');
    };
    await expect.poll(async () => (await node())?.status, { timeout: 30_000, interval: 200 }).toBe('AVAILABLE');
    const id = (await node())!.id;
    expect(b.app.runtime.registry.get(id)).toBeUndefined();
    const del = await b.inject({ method: 'POST', url: '/api/del_vps', token: admin.token, payload: { vpsId: id, mode: 'delete' } });
    expect(del.json()).toEqual({ status: 'OK', vpsId: id });
    expect(await exited).toBe(0);
    expect(await node()).toBeUndefined();
  }, 60_000);

  it("ends a dead process's open conversations at their last heartbeat and takes its nodes offline", async () => {
    const dead = randomUUID();
    const seen = new Date(Date.now() - 60_000);
    const started = new Date(seen.getTime() - 30_000);
    const conversation = randomUUID();
    await a.ctx.db
      .insertInto('conversations')
      .values({
        id: conversation,
        owner_id: alice.id,
        avatar_id: 'echo',
        avatar_name: 'Echo',
        avatar_type: '2d',
        user_id: 'u',
        user_name: 'Ada',
        ip_address: '10.0.0.9',
        node_id: 'n',
        started_at: started,
        last_seen_at: seen,
        process_id: dead,
      })
      .execute();
    const nodeId = randomUUID();
    await a.ctx.db
      .insertInto('pipeline_nodes')
      .values({
        id: nodeId,
        name: 'dead-node',
        status: 'AVAILABLE',
        capacity: 1,
        created_at: started,
        last_connect_at: started,
        last_ping_at: seen,
        process_id: dead,
      })
      .execute();
    // The dead process's row last: the live processes' heartbeat timers sweep dead processes on
    // their own, and one that ran between these inserts would forget the process before its node
    // was written (seen once in CI on PostgreSQL: the node stayed AVAILABLE).
    await a.ctx.db.insertInto('runtime_processes').values({ id: dead, started_at: started, seen_at: seen }).execute();

    await b.app.runtime.delivery.beat();

    const row = await a.ctx.db
      .selectFrom('conversations')
      .select(['ended_at', 'end_reason'])
      .where('id', '=', conversation)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ ended_at: seen, end_reason: 'server_lost' });
    expect((await a.ctx.db.selectFrom('pipeline_nodes').select('status').where('id', '=', nodeId).executeTakeFirstOrThrow()).status).toBe(
      'OFFLINE',
    );
    expect(await a.ctx.db.selectFrom('runtime_processes').select('id').where('id', '=', dead).executeTakeFirst()).toBeUndefined();
    // The live processes are not touched.
    const live = await a.ctx.db.selectFrom('runtime_processes').select('id').execute();
    expect(live.map((r) => r.id).sort()).toEqual([a.app.runtime.delivery.id, b.app.runtime.delivery.id].sort());
  });

  it('drops a malformed delivery with a log line and goes on with the next', async () => {
    const c = await connect(hostA, { avatarId: 'echo' });
    const { sessionId } = await c.next('ready');
    const at = new Date();
    await a.ctx.db
      .insertInto('runtime_deliveries')
      .values([
        { process_id: a.app.runtime.delivery.id, kind: 'say', payload: '{not json', created_at: at },
        { process_id: a.app.runtime.delivery.id, kind: 'unknown', payload: '{}', created_at: at },
        {
          process_id: a.app.runtime.delivery.id,
          kind: 'say',
          payload: JSON.stringify({ conversationId: sessionId, message: 'still delivered' }),
          created_at: at,
        },
      ])
      .execute();
    await a.app.runtime.delivery.poll();
    expect((await c.next('assistant_done')).text).toBe('still delivered');
    expect(a.logs.filter((l) => l.includes('dropped a malformed delivery'))).toHaveLength(2);
    expect(Number((await sql<{ n: number }>`select count(*)::int as n from runtime_deliveries`.execute(a.ctx.db)).rows[0]!.n)).toBe(0);
  });
});
