// Try it and the call log of functions (issue 39 item 7, decision 415): the editor's code runs in
// the live calls' sandbox with sample arguments; a live call of an LLM avatar is recorded, shown
// to its owner only, and each function keeps its newest calls.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AvatarEngine } from '@parla/shared/enums';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { EXAMPLE_FUNCTION_CODE, TRY_ARGUMENTS_INVALID, type FunctionCallRecord } from '@parla/shared/schemas/functions';
import { createAdmin, createCustomer, type TestAccount } from '../../../test/accounts';
import { save } from '../../../test/avatar-requests';
import { closeAll, connect, listen } from '../../../test/conversation-client';
import { createTestServer, type TestServer } from '../../../test/harness';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../../test/stand-ins/runtime/openai';
import { startCanary, type Canary } from '../../../test/canary';
import { CALLS_KEPT } from './function-calls';

let server: TestServer;
let host: string;
let openai: OpenAiStandIn;
let canary: Canary;
let alice: TestAccount;
let bob: TestAccount;
let admin: TestAccount;

const ADD = 'def add(a: int, b: int) -> dict:\n    """Adds two numbers."""\n    return {"sum": a + b}\n';

beforeAll(async () => {
  openai = await startOpenAiStandIn();
  // A short wall clock so the timeout is seen in seconds (production: 5 s).
  canary = await startCanary();
  server = await createTestServer({
    OUTBOUND_ALLOW: openai.allow,
    PROVIDER_URL_OVERRIDES: `api.openai.com=${openai.url}`,
    SANDBOX_WALL_CLOCK_MS: '2500',
  });
  host = await listen(server);
  alice = await createCustomer(server, 'try-alice');
  bob = await createCustomer(server, 'try-bob');
  admin = await createAdmin(server);
  await server.ctx.db.updateTable('users').set({ subscription_type: 4 }).where('id', '=', alice.id).execute();
  server.app.runtime.sandbox.warm();
}, 120_000);

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await openai.close();
  await canary.close();
});

async function create(account: TestAccount, name: string, code: string): Promise<string> {
  const res = await server.inject({
    method: 'POST',
    url: '/api/functions',
    token: account.token,
    payload: { functions: [{ action: 'new', name, code, language: 'python' }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().functions as { id: string; name: string; template: boolean }[]).find((f) => f.name === name && !f.template)!.id;
}

function tryIt(account: TestAccount, payload: Record<string, unknown>) {
  return server.inject({ method: 'POST', url: '/api/functions/try', token: account.token, payload });
}

describe('trying a function before review', () => {
  it('runs the code as typed with the sample arguments and answers its result and duration', async () => {
    const res = await tryIt(alice, { code: ADD, functionName: 'add', arguments: '{"a": 2, "b": 3}' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.ok).toBe(true);
    expect(JSON.parse(body.result)).toEqual({ sum: 5 });
    expect(body.durationMs).toBeGreaterThanOrEqual(0);
  }, 90_000);

  it('runs the saved code of your own Pending function when no code is sent', async () => {
    const id = await create(alice, 'saved_add.py', ADD);
    const res = await tryIt(alice, { id, functionName: 'add', arguments: '{"a": 1, "b": 1}' });
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(res.json().result)).toEqual({ sum: 2 });
  }, 90_000);

  it("answers the function's error as text", async () => {
    const code = 'def fail(x: str) -> dict:\n    raise ValueError("no order " + x)\n';
    const res = await tryIt(alice, { code, functionName: 'fail', arguments: '{"x": "A-1"}' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ok).toBe(false);
    expect(res.json().error).toContain('no order A-1');
  }, 90_000);

  it('stops code that runs past the wall-clock limit, as a live call is stopped', async () => {
    const res = await tryIt(alice, { code: 'def spin() -> dict:\n    while True:\n        pass\n', functionName: 'spin' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: false, error: 'The function took longer than 2.5 s and was stopped.' });
  }, 90_000);

  it('cannot reach the network from a try either', async () => {
    const code = `import socket\ndef out() -> dict:\n    socket.create_connection(("127.0.0.1", ${canary.port}))\n    return {}\n`;
    const res = await tryIt(alice, { code, functionName: 'out' });
    expect(res.json().ok).toBe(false);
    expect(canary.connections()).toBe(0);
  }, 90_000);

  it("is a 404 for another account's function, and its code does not run", async () => {
    const id = await create(bob, 'bobs.py', ADD);
    const res = await tryIt(alice, { id, functionName: 'add', arguments: '{"a": 1, "b": 2}' });
    expect(res.statusCode).toBe(404);
    const calls = await server.inject({ method: 'GET', url: `/api/functions/${id}/calls`, token: alice.token });
    expect(calls.statusCode).toBe(404);
  });

  it('refuses arguments that are not a JSON object with 400 and the reason', async () => {
    for (const args of ['{"a": 1', '[1, 2]', '"text"', 'null']) {
      const res = await tryIt(alice, { code: ADD, functionName: 'add', arguments: args });
      expect(res.statusCode, args).toBe(400);
      expect(res.json().errors).toEqual([TRY_ARGUMENTS_INVALID]);
    }
    const noName = await tryIt(alice, { code: ADD, functionName: 'not a name' });
    expect(noName.statusCode).toBe(400);
    const nothing = await tryIt(alice, { functionName: 'add' });
    expect(nothing.statusCode).toBe(400);
  });
});

describe('the call log', () => {
  it('records a live LLM tool call (time, avatar, duration, result) and shows it to the owner only, never the arguments', async () => {
    const id = await create(alice, 'orders.py', EXAMPLE_FUNCTION_CODE);
    const approved = await server.inject({
      method: 'POST',
      url: '/api/admin/function_decision',
      token: admin.token,
      payload: { id, approve: true },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
    const appearance = (cat.json().avatars as { id: string; type: string }[]).find((a) => a.type === '2d')!;
    const base = { name: 'Desk', dhType: appearance.type, appearanceId: appearance.id };
    const made = (await save(server, alice.token, base)).json().agent as Avatar & { updated: string };
    const llm = {
      provider: 'openai',
      base_url: `${openai.url}/v1`,
      api_key: STAND_IN_KEY,
      model: 'stand-in-model',
      instructions: 'You are the order desk.',
      custom_text: 'Guest: Ada.',
      max_tokens: 120,
    };
    const saved = await save(server, alice.token, {
      ...base,
      id: made.id,
      updated: made.updated,
      nlpEngine: AvatarEngine.LargeLanguageModel,
      setupMode: 'Composite',
      functions: [id],
      customData: { agent_pipeline_config: { llm } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const a = saved.json().agent as Avatar & { token: string };
    // Functions are offered to avatars with the realtime flag (set from an admin-proxy session, spec 3 §6).
    await server.ctx.db.updateTable('avatars').set({ realtime: true }).where('id', '=', a.id).execute();
    openai.reply = (messages) => {
      const last = messages[messages.length - 1]!;
      if (last.role === 'tool') return { content: [`Status: ${JSON.parse(String(last.content)).status}.`] };
      return { toolCall: { name: 'get_order_status', arguments: '{"order_id": "a-1042"}' } };
    };
    try {
      const c = await connect(host, { avatarId: a.id, token: a.token });
      await c.next('ready');
      await c.next('assistant_done', undefined, 60_000); // the greeting (it may call the function too)
      expect((await c.ask('where is my order?', 60_000)).text).toBe('Status: shipped.');
    } finally {
      openai.reply = (messages) => ({
        content: ['You asked: ', String([...messages].reverse().find((m) => m.role === 'user')?.content ?? '')],
      });
    }
    await server.app.runtime.callLog.flush();
    const res = await server.inject({ method: 'GET', url: `/api/functions/${id}/calls`, token: alice.token });
    expect(res.statusCode, res.body).toBe(200);
    const calls = res.json().calls as FunctionCallRecord[];
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls[0]).toMatchObject({ avatarId: a.id, avatarName: 'Desk', ok: true });
    expect(calls[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(calls[0]!.at)).not.toBeNaN();
    const rows = await server.ctx.db.selectFrom('function_calls').selectAll().where('function_id', '=', id).execute();
    // What is stored: no arguments (the lower-case order number the model sent is nowhere).
    expect(Object.keys(rows[0]!).sort()).toEqual(['avatar_id', 'called_at', 'duration_ms', 'excerpt', 'function_id', 'id', 'ok']);
    expect(JSON.stringify(rows)).not.toContain('a-1042');
    expect(calls[0]!.excerpt).toContain('shipped');
    const foreign = await server.inject({ method: 'GET', url: `/api/functions/${id}/calls`, token: bob.token });
    expect(foreign.statusCode).toBe(404);
  }, 120_000);

  it(`keeps the newest ${CALLS_KEPT} calls of each function, in pages newest first`, async () => {
    const id = await create(alice, 'busy.py', ADD);
    const log = server.app.runtime.callLog;
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < CALLS_KEPT + 5; i++)
      log.record({ function_id: id, avatar_id: null, called_at: new Date(t0 + i * 1000), duration_ms: i, ok: true, excerpt: `#${i}` });
    await log.flush();
    const count = await server.ctx.db
      .selectFrom('function_calls')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('function_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(CALLS_KEPT);
    const first = (await server.inject({ method: 'GET', url: `/api/functions/${id}/calls?limit=10`, token: alice.token })).json();
    expect(first.calls.map((c: FunctionCallRecord) => c.excerpt)[0]).toBe(`#${CALLS_KEPT + 4}`);
    expect(first.calls).toHaveLength(10);
    expect(first.nextOffset).toBe(10);
  });

  it('a call of a function deleted before the write costs only its own row', async () => {
    const id = await create(alice, 'kept.py', ADD);
    const log = server.app.runtime.callLog;
    const row = { avatar_id: null, called_at: new Date(), duration_ms: 1, ok: true, excerpt: 'x' };
    log.record({ ...row, function_id: 'deleted-function' });
    log.record({ ...row, function_id: id });
    await log.flush();
    const res = await server.inject({ method: 'GET', url: `/api/functions/${id}/calls`, token: alice.token });
    expect(res.json().calls).toHaveLength(1);
  });
});
