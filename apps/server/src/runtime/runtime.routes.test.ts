import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, MAX_CONVERSATIONS_PER_IP } from '@parla/shared/schemas/conversation';
import { ErrorCode } from '@parla/shared/errors';
import { createTestServer, type TestServer } from '../../test/harness';
import { createAdmin, createCustomer, type TestAccount } from '../../test/accounts';
import { closeAll, connect, listen, testAvatars } from '../../test/conversation-client';
import { DAILY_LIMIT_NOTICE } from './conversation/conversation';

let server: TestServer;
let host: string;
let alice: TestAccount;
let bob: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  server = await createTestServer();
  host = await listen(server);
  alice = await createCustomer(server, 'alice');
  bob = await createCustomer(server, 'bob');
  admin = await createAdmin(server);
  testAvatars(server, {
    echo: { ownerId: alice.id },
    bobs: { ownerId: bob.id },
    private: { id: 'private', ownerId: alice.id },
    session: { ownerId: alice.id, limits: { dailyLimitPerSession: 30, dailyLimitPerIP: -1, demo: -1, idleTimeout: 300 } },
    perip: { ownerId: alice.id, limits: { dailyLimitPerSession: -1, dailyLimitPerIP: 30, demo: -1, idleTimeout: 300 } },
    demo: { ownerId: alice.id, limits: { dailyLimitPerSession: -1, dailyLimitPerIP: -1, demo: 20, idleTimeout: 300 } },
    idle: { ownerId: alice.id, limits: { dailyLimitPerSession: -1, dailyLimitPerIP: -1, demo: -1, idleTimeout: 60 } },
    origin: { ownerId: alice.id, allowedOrigins: ['https://shop.example'] },
  });
});

afterEach(async () => {
  await closeAll();
  // Ends are recorded asynchronously after the socket closes.
  await expect
    .poll(async () => (await server.ctx.db.selectFrom('conversations').select('id').where('ended_at', 'is', null).execute()).length)
    .toBe(0);
});

afterAll(async () => {
  await server.close();
});

describe('WS /ws/conversation', () => {
  it('an open conversation keeps nothing of the HTTP upgrade or of the wait for hello (issue 37: idle memory)', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    const sockets = [...(server.app as unknown as { websocketServer: { clients: Set<WebSocket> } }).websocketServer.clients];
    expect(sockets.length).toBeGreaterThan(0);
    for (const ws of sockets) {
      const tcp = (ws as unknown as { _socket: { _httpMessage?: unknown } })._socket;
      // The upgrade's response (and through it the request, reply and logger) is let go.
      expect(tcp._httpMessage ?? null).toBeNull();
      // One error listener (the conversation's own), two close listeners (ws's client list and the
      // channel) and one message listener: the hello wait's and the upgrade's are gone.
      expect(ws.listenerCount('error')).toBe(1);
      expect(ws.listenerCount('close')).toBe(2);
      expect(ws.listenerCount('message')).toBe(1);
    }
  });

  it('says ready first, streams the echo reply with a turn id and ends it with the whole text', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    const ready = await c.next('ready');
    expect(ready).toMatchObject({ type: 'ready', avatarId: 'echo', engine: 'Echo' });
    expect(c.messages[0]!.type).toBe('ready');
    const done = await c.ask('hello there friend');
    const deltas = c.messages.filter((m) => m.type === 'assistant_delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((d) => d.type === 'assistant_delta' && d.turnId === done.turnId)).toBe(true);
    expect(done.text).toBe('hello there friend');
    c.send({ type: 'bye' });
    expect((await c.closed).code).toBe(CLOSE_CODES.normal);
  });

  it('writes the conversation record from start to end', async () => {
    const c = await connect(
      host,
      { avatarId: 'echo' },
      { type: 'hello', deviceId: 'dev-rec', userName: 'Grace', deviceOS: 'Linux', locale: 'de-DE' },
    );
    const { sessionId } = await c.next('ready');
    const open = await server.ctx.db.selectFrom('conversations').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
    expect(open).toMatchObject({
      owner_id: alice.id,
      avatar_id: 'echo',
      user_name: 'Grace',
      device_os: 'Linux',
      locale: 'de-DE',
      ended_at: null,
    });
    c.ws.close();
    await c.closed;
    await expect
      .poll(
        async () =>
          (await server.ctx.db.selectFrom('conversations').select('ended_at').where('id', '=', sessionId).executeTakeFirstOrThrow())
            .ended_at,
      )
      .not.toBeNull();
  });

  it('starts without a hello and still answers', async () => {
    const c = await connect(host, { avatarId: 'echo' }, null);
    await c.next('ready', undefined, 5000);
    expect((await c.ask('no hello')).text).toBe('no hello');
    c.ws.close();
  });

  it('closes with room-not-found for an unknown avatar and invalid-token for a bad token', async () => {
    const unknown = await connect(host, { avatarId: 'nope' });
    expect((await unknown.next('error')).code).toBe(ErrorCode.RoomNotFoundError);
    expect((await unknown.closed).code).toBe(CLOSE_CODES.roomNotFound);
    const bad = await connect(host, { avatarId: 'private', token: 'wrong' });
    expect((await bad.next('error')).code).toBe(ErrorCode.InvalidToken);
    expect((await bad.closed).code).toBe(CLOSE_CODES.invalidToken);
    const good = await connect(host, { avatarId: 'private', token: 'good-token' });
    await good.next('ready');
    good.ws.close();
  });

  it('refuses a page whose origin the avatar does not allow', async () => {
    const c = await connect(host, { avatarId: 'origin' }, null, { origin: 'https://evil.example' });
    expect((await c.closed).code).toBe(CLOSE_CODES.originRefused);
    const ok = await connect(host, { avatarId: 'origin' }, null, { origin: 'https://shop.example' });
    await ok.next('ready');
    ok.ws.close();
  });

  it('answers a bad message with an error and keeps the conversation', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    c.ws.send('not json');
    expect((await c.next('error')).code).toBe(ErrorCode.InvalidOrMissingParams);
    c.send({ type: 'user_text', text: 'x'.repeat(5000) });
    expect((await c.next('error')).message).toMatch(/at most 4000/);
    expect((await c.ask('still here')).text).toBe('still here');
    c.ws.close();
  });

  it('closes with 1009 when a frame is larger than the limit', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    c.ws.send(JSON.stringify({ type: 'user_text', text: 'y'.repeat(300 * 1024) }));
    expect((await c.closed).code).toBe(CLOSE_CODES.tooLarge);
  });

  it('closes a client that floods messages with the rate-limit code', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    for (let i = 0; i < 200; i++) c.send({ type: 'ping' });
    expect((await c.closed).code).toBe(CLOSE_CODES.rateLimited);
  });

  it('stops the reply on interrupt and marks it interrupted', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    c.send({ type: 'user_text', text: Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ') });
    c.send({ type: 'interrupt' });
    const done = await c.next('assistant_done');
    expect(done.interrupted).toBe(true);
    c.ws.close();
  });
});

describe('limits', () => {
  it('switches to echo when the daily limit per session is used up, and a reconnect does not reset it', async () => {
    const c = await connect(host, { avatarId: 'session' }, { type: 'hello', deviceId: 'dev-limit' });
    await c.next('ready');
    server.advance(31_000);
    await server.app.runtime.tickAll();
    expect((await c.next('notice')).message).toBe(DAILY_LIMIT_NOTICE);
    c.ws.close();
    await c.closed;
    const again = await connect(host, { avatarId: 'session' }, { type: 'hello', deviceId: 'dev-limit' });
    expect((await again.next('ready')).engine).toBe('Echo');
    expect((await again.next('notice')).reason).toBe('daily_limit_echo');
    again.ws.close();
    // Another session of the same avatar is not limited by this one's time.
    const other = await connect(host, { avatarId: 'session' }, { type: 'hello', deviceId: 'dev-other' });
    await other.next('ready');
    await new Promise((r) => setTimeout(r, 100));
    expect(other.messages.some((m) => m.type === 'notice')).toBe(false);
    other.ws.close();
  });

  it('switches to echo when the daily limit per IP is used up, whatever the device', async () => {
    const c = await connect(host, { avatarId: 'perip' }, { type: 'hello', deviceId: 'dev-a' });
    await c.next('ready');
    server.advance(31_000);
    await server.app.runtime.tickAll();
    await c.next('notice');
    c.ws.close();
    const fresh = await connect(host, { avatarId: 'perip' }, { type: 'hello', deviceId: 'dev-b' });
    await fresh.next('notice');
    fresh.ws.close();
  });

  it('disconnects when the demo duration is used up and refuses to start again', async () => {
    const c = await connect(host, { avatarId: 'demo' });
    await c.next('ready');
    server.advance(21_000);
    await server.app.runtime.tickAll();
    expect((await c.next('bye')).reason).toBe('demo');
    expect((await c.closed).code).toBe(CLOSE_CODES.demoOver);
    const again = await connect(host, { avatarId: 'demo' });
    expect((await again.closed).code).toBe(CLOSE_CODES.demoOver);
  });

  it('ends a conversation after the idle timeout', async () => {
    const c = await connect(host, { avatarId: 'idle' });
    await c.next('ready');
    await c.ask('one message');
    server.advance(61_000);
    await server.app.runtime.tickAll();
    expect((await c.next('bye')).reason).toBe('idle');
    expect((await c.closed).code).toBe(CLOSE_CODES.idleTimeout);
  });

  it("refuses a conversation over the plan's monthly minutes with UsageLimitExceeded", async () => {
    // Bob is on the FREE plan (30 minutes): a past conversation of 31 minutes this month.
    await server.ctx.db.updateTable('users').set({ subscription_type: 1 }).where('id', '=', bob.id).execute();
    const end = server.ctx.now();
    const start = new Date(end.getTime() - 31 * 60_000);
    if (start.getUTCMonth() !== end.getUTCMonth()) start.setTime(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1));
    await server.ctx.db
      .insertInto('conversations')
      .values({
        id: 'old-bob',
        owner_id: bob.id,
        avatar_id: 'bobs',
        avatar_name: 'b',
        avatar_type: '2d',
        user_id: 'u',
        user_name: 'u',
        started_at: start,
        last_seen_at: end,
        ended_at: new Date(start.getTime() + 31 * 60_000),
        status: 'OFFLINE',
      })
      .execute();
    const c = await connect(host, { avatarId: 'bobs' });
    expect((await c.next('error')).code).toBe(ErrorCode.UsageLimitExceeded);
    expect((await c.closed).code).toBe(CLOSE_CODES.usageLimitExceeded);
  });

  it('refuses more concurrent conversations from one IP with MaxConcurrencyPerIPReached', async () => {
    const open = [];
    for (let i = 0; i < MAX_CONVERSATIONS_PER_IP; i++) {
      const c = await connect(host, { avatarId: 'echo' }, { type: 'hello', deviceId: `conc-${i}` });
      await c.next('ready');
      open.push(c);
    }
    const extra = await connect(host, { avatarId: 'echo' });
    expect((await extra.next('error')).code).toBe(ErrorCode.MaxConcurrencyPerIPReached);
    expect((await extra.closed).code).toBe(CLOSE_CODES.maxConcurrencyPerIP);
    for (const c of open) c.ws.close();
    await Promise.all(open.map((c) => c.closed));
  });
});

describe('online users and VPS lists', () => {
  it('lists open conversations to administrators, and each customer only their own', async () => {
    const a = await connect(host, { avatarId: 'echo' }, { type: 'hello', deviceId: 'dev-list', userName: 'Listed' });
    const { sessionId } = await a.next('ready');
    const all = await server.inject({ method: 'POST', url: '/api/list_online_users', token: admin.token, payload: { mode: 'get' } });
    expect(all.statusCode).toBe(200);
    expect(all.json().onlineUsers.some((u: { sessionId: string }) => u.sessionId === sessionId)).toBe(true);
    const forbidden = await server.inject({ method: 'POST', url: '/api/list_online_users', token: alice.token, payload: { mode: 'get' } });
    expect(forbidden.statusCode).toBe(403);
    const mine = await server.inject({ method: 'POST', url: '/api/list_my_online_users', token: alice.token, payload: { mode: 'get' } });
    expect(mine.json().onlineUsers.map((u: { sessionId: string }) => u.sessionId)).toContain(sessionId);
    const bobs = await server.inject({ method: 'POST', url: '/api/list_my_online_users', token: bob.token, payload: { mode: 'get' } });
    expect(bobs.json().onlineUsers).toEqual([]);
    const detail = await server.inject({
      method: 'POST',
      url: '/api/get_online_user',
      token: admin.token,
      payload: { sessionId, mode: 'get' },
    });
    expect(detail.json()).toMatchObject({
      status: 'OK',
      userDetail: { sessionId, userName: 'Listed', deviceId: 'dev-list', deviceCount: 1, avatarId: 'echo' },
    });
    const missing = await server.inject({
      method: 'POST',
      url: '/api/get_online_user',
      token: admin.token,
      payload: { sessionId: 'nope', mode: 'get' },
    });
    expect(missing.statusCode).toBe(404);
    const foreign = await server.inject({
      method: 'POST',
      url: '/api/get_my_online_user',
      token: bob.token,
      payload: { sessionId, mode: 'get' },
    });
    expect(foreign.statusCode).toBe(404);
    a.ws.close();
  });

  it('lists the in-process node as AVAILABLE and refuses to delete it', async () => {
    const list = await server.inject({ method: 'GET', url: '/api/list_vps', token: admin.token });
    const local = list.json().vpsList.find((v: { inProcess: boolean }) => v.inProcess);
    expect(local).toMatchObject({ status: 'AVAILABLE' });
    const got = await server.inject({ method: 'POST', url: '/api/get_vps', token: admin.token, payload: { vpsId: local.id, mode: 'get' } });
    expect(got.json().vpsDetail.vpsId).toBe(local.id);
    const del = await server.inject({
      method: 'POST',
      url: '/api/del_vps',
      token: admin.token,
      payload: { vpsId: local.id, mode: 'delete' },
    });
    expect(del.statusCode).toBe(400);
    expect(del.json().errors[0]).toBe('Invalid VPS');
    const unknown = await server.inject({
      method: 'POST',
      url: '/api/del_vps',
      token: admin.token,
      payload: { vpsId: 'nope', mode: 'delete' },
    });
    expect(unknown.statusCode).toBe(404);
    expect((await server.inject({ method: 'GET', url: '/api/list_vps', token: alice.token })).statusCode).toBe(403);
    const bad = await server.inject({ method: 'POST', url: '/api/get_vps', token: admin.token, payload: { mode: 'get' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual(['VPS Id is required']);
  });

  it('refuses a node without the node secret', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-secret-0123456789' }]) {
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`ws://${host}/ws/node`, { headers });
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('open', () => reject(new Error('a node connected without the secret')));
        ws.once('error', () => undefined);
      });
      expect(status).toBe(401);
    }
  });

  it("records each turn's latency and summarises it per avatar", async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    await c.ask('time me');
    c.ws.close();
    await expect
      .poll(
        async () =>
          (await server.inject({ method: 'POST', url: '/api/avatar_latency', token: alice.token, payload: { agentId: 'echo' } })).json()
            .latency.turns,
      )
      .toBeGreaterThan(0);
    const res = await server.inject({ method: 'POST', url: '/api/avatar_latency', token: alice.token, payload: { agentId: 'echo' } });
    expect(res.json().latency.firstDelta.p50).toEqual(expect.any(Number));
    // Another account's avatar is not found (no turns of bob's, not bob's avatar).
    const bobs = await server.inject({ method: 'POST', url: '/api/avatar_latency', token: bob.token, payload: { agentId: 'echo' } });
    expect(bobs.statusCode).toBe(404);
    const mine = await server.inject({ method: 'POST', url: '/api/list_my_latency', token: alice.token, payload: { mode: 'get' } });
    const echo = mine.json().avatars.find((a: { avatarId: string }) => a.avatarId === 'echo');
    expect(echo).toMatchObject({
      avatarName: 'Avatar echo',
      latency: { firstDelta: { p50: expect.any(Number), p95: expect.any(Number) } },
    });
    expect(
      (await server.inject({ method: 'POST', url: '/api/list_my_latency', token: bob.token, payload: { mode: 'get' } })).json().avatars,
    ).toEqual([]);
  });
});
