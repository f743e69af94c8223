// Saved avatars through the runtime: access by token, None and signed JWT; an LLM avatar with a
// knowledge collection (the retrieved chunk reaches the model's prompt); echo with no
// configuration; approved functions only; the conversation record feeds the online users of
// the avatar and the billing report.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { ErrorCode } from '@parla/shared/errors';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { AvatarEngine } from '@parla/shared/enums';
import { EXAMPLE_FUNCTION_CODE } from '@parla/shared/schemas/functions';
import { createTestServer, type TestServer } from '../../test/harness';
import { createAdmin, createCustomer, type TestAccount } from '../../test/accounts';
import { closeAll, connect, listen } from '../../test/conversation-client';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../test/stand-ins/runtime/openai';
import { save } from '../../test/avatar-requests';
import { kbClient } from '../../test/knowledge-requests';
import { startKnowledgeWorker, type KnowledgeWorker } from '../modules/knowledge/knowledge.worker';
import { newAccessToken } from '../modules/encryption-keys/access-token';
import { issueAvatarAccessToken } from '../modules/encryption-keys/encryption-keys.service';
import { SIMPLE_MODE_UNCONFIGURED } from './avatar-config';
import { DEEPGRAM_KEY, ELEVEN_KEY, startSpeechStandIn, type SpeechStandIn } from '../../test/stand-ins/runtime/speech';

let server: TestServer;
let host: string;
let openai: OpenAiStandIn;
let speech: SpeechStandIn;
let worker: KnowledgeWorker;
let alice: TestAccount;
let admin: TestAccount;
let appearance: { id: string; type: string };

/** Creates an avatar (new avatars start as echo) and then saves its brain, as the editor does. */
async function avatar(extra: Record<string, unknown> = {}): Promise<Avatar & { token: string }> {
  const base = { name: 'Nova', dhType: appearance.type, appearanceId: appearance.id };
  const res = await save(server, alice.token, base);
  expect(res.statusCode, res.body).toBe(200);
  const created = res.json().agent as Avatar & { token: string; updated: string };
  if (!Object.keys(extra).length) return created;
  const upd = await save(server, alice.token, { ...base, id: created.id, updated: created.updated, ...extra });
  expect(upd.statusCode, upd.body).toBe(200);
  return upd.json().agent;
}

const llmPipeline = (over: Record<string, unknown> = {}) => ({
  agent_pipeline_config: {
    llm: {
      provider: 'openai',
      base_url: `${openai.url}/v1`,
      api_key: STAND_IN_KEY,
      model: 'stand-in-model',
      instructions: 'You are the hotel desk.',
      custom_text: 'Guest: Ada.',
      max_tokens: 120,
      ...over,
    },
  },
});

beforeAll(async () => {
  openai = await startOpenAiStandIn();
  speech = await startSpeechStandIn();
  server = await createTestServer({
    OUTBOUND_ALLOW: [openai.allow, speech.allow].join(','),
    // The providers' real hosts, redirected to the stand-ins (the editor then offers the
    // redirected OpenAI base URL).
    PROVIDER_URL_OVERRIDES: `api.openai.com=${openai.url},api.deepgram.com=${speech.url},api.elevenlabs.io=${speech.url}`,
  });
  host = await listen(server);
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  alice = await createCustomer(server, 'runtime-avatars');
  admin = await createAdmin(server);
  await server.ctx.db.updateTable('users').set({ subscription_type: 4 }).where('id', '=', alice.id).execute();
  const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  appearance = (cat.json().avatars as { id: string; type: string }[]).find((a) => a.type === '2d')!;
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await worker.stop();
  await server.close();
  await openai.close();
  await speech.close();
});

describe('saved avatars in conversations', () => {
  it('a new avatar is an echo with no configuration, opened with its token; a wrong token is refused', async () => {
    const a = await avatar();
    const c = await connect(host, { avatarId: a.id, token: a.token });
    expect((await c.next('ready')).engine).toBe('Echo');
    // The wake-up message (a new avatar's default) is the first, hidden turn: echo repeats it.
    expect((await c.next('assistant_done')).text).toBe('Hello! How can I help you today?');
    expect((await c.ask('hello avatar')).text).toBe('hello avatar');
    const bad = await connect(host, { avatarId: a.id, token: 'not-the-token' });
    expect((await bad.next('error')).code).toBe(ErrorCode.InvalidToken);
    expect((await bad.closed).code).toBe(CLOSE_CODES.invalidToken);
    const none = await connect(host, { avatarId: a.id });
    expect((await none.closed).code).toBe(CLOSE_CODES.invalidToken);
    // Default also takes a single-use JWT signed by the account's default key.
    const { token } = await issueAvatarAccessToken(server.ctx, alice.id, a.id);
    await (await connect(host, { avatarId: a.id, token })).next('ready');
    expect((await (await connect(host, { avatarId: a.id, token })).closed).code).toBe(CLOSE_CODES.invalidToken);
  });

  it('an avatar with encryption None is open to anyone', async () => {
    const a = await avatar({ encKeyId: 'None' });
    const c = await connect(host, { avatarId: a.id });
    await c.next('ready');
  });

  it('an avatar with a created key takes ES256 JWTs signed by it: expired, reused and foreign-signed are refused', async () => {
    const created = await server.inject({ method: 'POST', url: '/api/enc/add', token: alice.token, payload: { name: 'Site key' } });
    expect(created.statusCode, created.body).toBe(200);
    const { encKey: privateKey, key } = created.json() as { encKey: string; key: { id: string } };
    const a = await avatar({ encKeyId: key.id });
    const now = Math.floor(Date.now() / 1000);
    const good = await newAccessToken(privateKey, a.id, now, 120);
    const c = await connect(host, { avatarId: a.id, token: good });
    await c.next('ready');
    const reused = await connect(host, { avatarId: a.id, token: good });
    expect((await reused.closed).code).toBe(CLOSE_CODES.invalidToken);
    const expired = await newAccessToken(privateKey, a.id, now - 7200, 60);
    expect((await (await connect(host, { avatarId: a.id, token: expired })).closed).code).toBe(CLOSE_CODES.invalidToken);
    const foreign = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect((await (await connect(host, { avatarId: a.id, token: await newAccessToken(foreign, a.id, now, 60) })).closed).code).toBe(
      CLOSE_CODES.invalidToken,
    );
    const otherAvatar = await newAccessToken(privateKey, 'another-avatar', now, 60);
    expect((await (await connect(host, { avatarId: a.id, token: otherAvatar })).closed).code).toBe(CLOSE_CODES.invalidToken);
  });

  it('an LLM avatar with a knowledge collection: the retrieved chunk with its source is in the prompt, the answer streams', async () => {
    const kb = await kbClient(server, alice);
    const col = await kb('POST', '/kb/v1/collections', { name: 'Hotel guide' });
    expect(col.statusCode, col.body).toBe(200);
    const collectionId = col.json().id;
    const item = await kb('POST', `/kb/v1/collections/${collectionId}/items`, {
      name: 'Breakfast hours',
      knowledge_type: { text: { content: 'Breakfast at Hotel Parla is served from 6:30 to 10:30 in the Garden Room on the first floor.' } },
    });
    expect(item.statusCode, item.body).toBe(200);
    await worker.drain();
    const a = await avatar({
      nlpEngine: AvatarEngine.LargeLanguageModel,
      setupMode: 'Composite',
      customData: { ...llmPipeline(), collection_ids: [collectionId] },
    });
    const c = await connect(host, { avatarId: a.id, token: a.token });
    expect((await c.next('ready')).engine).toBe('Large Language Model');
    expect((await c.next('assistant_done')).text).toBe('You asked: Hello! How can I help you today?');
    const done = await c.ask('When is breakfast served?');
    expect(done.text).toBe('You asked: When is breakfast served?');
    expect(done.sources).toEqual([{ name: 'Breakfast hours', itemId: item.json().id }]);
    const body = openai.chats().at(-1)!.json();
    expect(body.messages[0].content).toContain('You are the hotel desk.');
    expect(body.messages[0].content).toContain('Guest: Ada.');
    expect(body.messages[0].content).toContain('(source: Breakfast hours)');
    expect(body.messages[0].content).toContain('served from 6:30 to 10:30 in the Garden Room');
    expect(body.max_tokens).toBe(120);
    // The stored key was used in clear, never logged.
    expect(openai.chats().at(-1)!.headers.authorization).toBe(`Bearer ${STAND_IN_KEY}`);
    expect(server.logs.join('')).not.toContain(STAND_IN_KEY);
  });

  it("a custom STT/LLM/TTS avatar calls the providers' real hosts (redirected to stand-ins) with its stored keys", async () => {
    const a = await avatar({
      nlpEngine: AvatarEngine.CUSTOM_STT_LLM_TTS,
      setupMode: 'None',
      customData: {
        agent_pipeline_config: {
          ...llmPipeline().agent_pipeline_config,
          stt: { provider: 'deepgram', api_key: DEEPGRAM_KEY, languages: 'en-US', model: 'nova-3-general' },
          tts: { provider: 'elevenlabs', api_key: ELEVEN_KEY, voice_id: 'voice-1' },
          vad_options: { min_endpointing_delay: 0.05 },
        },
      },
    });
    const c = await connect(host, { avatarId: a.id, token: a.token });
    expect((await c.next('ready')).audio).toBe(true);
    await c.next('assistant_done'); // the greeting: the brain's answer to the wake-up message (speech over it interrupts it)
    c.send({ type: 'user_speech', event: 'start', at: 0 });
    for (let i = 0; i < 3; i++) c.sendBinary(Buffer.alloc(3200));
    c.send({ type: 'user_speech', event: 'end', at: 600 });
    expect((await c.next('transcript', (m) => m.final)).text).toBe('what are your opening hours');
    const done = await c.next('assistant_done', (m) => !m.interrupted);
    expect(done.text).toBe('You asked: what are your opening hours');
    for (let n = 1; ; n++) {
      const frame = (await c.audioFrames(n)).find((f) => f.header.turnId === done.turnId);
      if (!frame) continue;
      expect(frame.header.words?.length).toBeGreaterThan(3);
      break;
    }
  });

  it('in Simple mode without a product model it answers with a clear message', async () => {
    const a = await avatar({
      nlpEngine: AvatarEngine.LargeLanguageModel,
      setupMode: 'Simple',
      customData: { agent_pipeline_config: { llm: { provider: 'groq', custom_text: 'Guest: Ada.' } } },
    });
    const c = await connect(host, { avatarId: a.id, token: a.token });
    await c.next('ready');
    expect((await c.ask('hi')).text).toBe(SIMPLE_MODE_UNCONFIGURED);
  });

  it('offers a realtime LLM avatar its approved functions only; an unapproved one never runs', async () => {
    const fns = await server.inject({
      method: 'POST',
      url: '/api/functions',
      token: alice.token,
      payload: {
        functions: [
          { action: 'new', name: 'orders.py', code: EXAMPLE_FUNCTION_CODE, language: 'python' },
          { action: 'new', name: 'pending.py', code: 'def pending_tool(x: str) -> dict:\n    return {}\n', language: 'python' },
        ],
      },
    });
    expect(fns.statusCode, fns.body).toBe(200);
    const list = fns.json().functions as { id: string; name: string; template?: boolean }[];
    const orders = list.find((f) => f.name === 'orders.py' && !f.template)!;
    const pending = list.find((f) => f.name === 'pending.py' && !f.template)!;
    const decided = await server.inject({
      method: 'POST',
      url: '/api/admin/function_decision',
      token: admin.token,
      payload: { id: orders.id, approve: true },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const a = await avatar({
      nlpEngine: AvatarEngine.LargeLanguageModel,
      setupMode: 'Composite',
      functions: [orders.id, pending.id],
      customData: llmPipeline(),
    });
    // The realtime flag is set from an admin-proxy session (spec 3 §6).
    await server.ctx.db.updateTable('avatars').set({ realtime: true }).where('id', '=', a.id).execute();
    const c = await connect(host, { avatarId: a.id, token: a.token });
    await c.next('ready');
    await c.ask('hello');
    const tools = (openai.chats().at(-1)!.json().tools ?? []) as { function: { name: string; parameters: { required: string[] } } }[];
    expect(tools.map((t) => t.function.name)).toEqual(['get_order_status']);
    expect(tools[0]!.function.parameters.required).toEqual(['order_id']);
  });

  it('the conversation is an online user of the avatar while it runs, and the billing report counts it after', async () => {
    const a = await avatar();
    const c = await connect(host, { avatarId: a.id, token: a.token }, { type: 'hello', deviceId: 'bill-dev', userName: 'Billie' });
    const { sessionId } = await c.next('ready');
    const users = await server.inject({
      method: 'POST',
      url: '/api/list_avatar_users',
      token: alice.token,
      payload: { agentId: a.id, mode: 'get' },
    });
    expect(users.json().onlineUsers.map((u: { sessionId: string }) => u.sessionId)).toEqual([sessionId]);
    const listed = await server.inject({ method: 'GET', url: '/api/avatar/list', token: alice.token });
    const card = (listed.json().agents as (Avatar & Record<string, unknown>)[]).find((x) => x.id === a.id)!;
    expect(JSON.stringify(card)).toMatch(/"(usersCount|onlineUsers|activeUsers)":1/);
    server.advance(90_000);
    c.send({ type: 'bye' });
    await c.closed;
    await expect
      .poll(
        async () =>
          (await server.ctx.db.selectFrom('conversations').select('ended_at').where('id', '=', sessionId).executeTakeFirstOrThrow())
            .ended_at,
      )
      .not.toBeNull();
    const end = Date.now() + 3_600_000;
    const stats = await server.inject({
      method: 'GET',
      url: `/api/account_stats?startDate=${end - 86_400_000 * 2}&endDate=${end}`,
      token: alice.token,
    });
    const row = (stats.json().billingData as { avatarId: string; totalCallCount: number; totalCallDuration: number }[]).find(
      (r) => r.avatarId === a.id,
    )!;
    expect(row.totalCallCount).toBe(1);
    expect(row.totalCallDuration).toBeGreaterThanOrEqual(1.5);
  });
});
