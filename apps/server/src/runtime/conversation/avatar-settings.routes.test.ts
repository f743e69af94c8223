// Issue 13 from outside: each avatar setting flipped, observed on the conversation socket and in
// what the protocol stand-ins (REST endpoint, OpenAI-compatible model and realtime, Dialogflow,
// a billing service) received.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { ErrorCode } from '@parla/shared/errors';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars, type TestConversation } from '../../../test/conversation-client';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../../test/stand-ins/runtime/openai';
import { REST_KEY, startRestStandIn, type RestStandIn } from '../../../test/stand-ins/runtime/rest-endpoint';
import { startGoogleStandIn, type GoogleStandIn } from '../../../test/stand-ins/runtime/google';
import { startBillingStandIn, type BillingStandIn } from '../../../test/stand-ins/runtime/billing';
import { NO_SETTINGS, type AvatarSettings } from '../avatar-settings';
import { parseServiceAccount } from '../engines/google-auth';
import { DEFAULT_REALTIME_VAD, type EngineConfig, type LlmConfig } from '../types';
import { BILLING_REFUSED_MESSAGE, BILLING_UNREACHABLE_MESSAGE } from './billing-auth';

let server: TestServer;
let host: string;
let alice: TestAccount;
let openai: OpenAiStandIn;
let rest: RestStandIn;
let google: GoogleStandIn;
let billing: BillingStandIn;

const WAKE = 'Wake up, Nova!';
const settings = (over: Partial<AvatarSettings> = {}): AvatarSettings => ({ ...NO_SETTINGS, ...over });
const llm = (over: Partial<LlmConfig> = {}): LlmConfig => ({
  kind: 'llm',
  baseUrl: `${openai.url}/v1`,
  apiKey: STAND_IN_KEY,
  model: 'stand-in-model',
  instructions: 'You are the front desk.',
  memory: '',
  sendHistory: true,
  tools: [],
  ...over,
});
const restEngine = (over: Record<string, unknown> = {}): EngineConfig => ({
  kind: 'rest',
  url: `${rest.url}/hook`,
  apiKey: REST_KEY,
  ...over,
});
const realtime = (greeting?: string): EngineConfig => ({
  kind: 'realtime',
  provider: 'openai',
  url: openai.realtimeUrl,
  apiKey: STAND_IN_KEY,
  model: 'gpt-4o-mini-realtime-preview',
  voice: 'alloy',
  instructions: 'Be brief.',
  ...(greeting ? { greeting } : {}),
  vad: DEFAULT_REALTIME_VAD,
  tools: [],
});

/** Text of the latest chat completion's last user message. */
const lastAsked = (i = -1) => {
  const body = openai.chats().at(i)!.json() as { messages: { role: string; content: string }[] };
  return [...body.messages].reverse().find((m) => m.role === 'user')?.content;
};

async function ended(c: TestConversation): Promise<void> {
  c.send({ type: 'bye' });
  await c.closed;
}

beforeAll(async () => {
  [openai, rest, google, billing] = await Promise.all([
    startOpenAiStandIn(),
    startRestStandIn(),
    startGoogleStandIn(),
    startBillingStandIn(),
  ]);
  server = await createTestServer({
    OUTBOUND_ALLOW: [openai, rest, google, billing].map((s) => s.allow).join(','),
    // The product's own model writes summaries for engines without one (REST).
    LLM_BASE_URL: `${openai.url}/v1`,
    LLM_API_KEY: STAND_IN_KEY,
  });
  host = await listen(server);
  alice = await createCustomer(server, 'settings');
  const sa = parseServiceAccount(google.keyFile);
  const es: EngineConfig = { kind: 'dialogflow_es', projectId: 'proj-es', serviceAccount: sa, language: 'en', apiBase: google.url };
  const cx: EngineConfig = {
    kind: 'dialogflow_cx',
    projectId: 'proj-cx',
    agentId: 'agent-7',
    regionId: 'global',
    serviceAccount: sa,
    language: 'en',
    apiBase: google.url,
  };
  const o = alice.id;
  testAvatars(server, {
    'echo-wake': { ownerId: o, settings: settings({ wakeUpMessage: WAKE }) },
    'echo-quiet': { ownerId: o, settings: settings() },
    'rest-wake': { ownerId: o, engine: restEngine(), settings: settings({ wakeUpMessage: WAKE }) },
    'llm-wake': { ownerId: o, engine: llm(), settings: settings({ wakeUpMessage: WAKE }) },
    'es-wake': { ownerId: o, engine: es, settings: settings({ wakeUpMessage: WAKE }) },
    'rt-wake': { ownerId: o, engine: realtime(), settings: settings({ wakeUpMessage: WAKE }) },
    'rt-greeting': { ownerId: o, engine: realtime('Welcome to Parla!'), settings: settings({ wakeUpMessage: WAKE }) },
    'rest-history': { ownerId: o, engine: restEngine({ sendHistory: true }), settings: settings() },
    'rest-no-history': { ownerId: o, engine: restEngine({ sendHistory: false }), settings: settings() },
    'es-history': { ownerId: o, engine: { ...es, sendHistory: true }, settings: settings() },
    'cx-history': { ownerId: o, engine: { ...cx, sendHistory: true }, settings: settings() },
    'cx-no-history': { ownerId: o, engine: { ...cx, sendHistory: false }, settings: settings() },
    'llm-no-bit': { ownerId: o, engine: llm(), sendHistory: false, settings: settings() },
    'llm-summary': { ownerId: o, engine: llm(), settings: settings({ summaryEnabled: true }), verifiedUserId: 'ada@example.com' },
    'llm-no-summary': { ownerId: o, engine: llm(), settings: settings({ summaryEnabled: false }), verifiedUserId: 'ada@example.com' },
    'rest-summary': { ownerId: o, engine: restEngine(), settings: settings({ summaryEnabled: true }), verifiedUserId: 'bob@example.com' },
    billed: {
      ownerId: o,
      settings: settings({ billingAuth: { url: `${billing.url}/authorise`, header: 'Bearer billing-secret-123', pingSeconds: 30 } }),
    },
    'billed-private': {
      ownerId: o,
      settings: settings({ billingAuth: { url: 'http://169.254.169.254/latest', header: 'Bearer x', pingSeconds: 30 } }),
    },
    streaming: { ownerId: o, settings: settings({ transcriptionStreaming: true, handleSttResponse: true }) },
  });
});

afterEach(async () => {
  billing.mode = 'ok';
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await Promise.all([openai, rest, google, billing].map((s) => s.close()));
});

describe('Wake Up Message', () => {
  it('echo repeats the wake-up message as its greeting; an avatar without one says nothing first', async () => {
    const c = await connect(host, { avatarId: 'echo-wake' });
    await c.next('ready');
    expect((await c.next('assistant_done')).text).toBe(WAKE);
    expect((await c.ask('hi')).text).toBe('hi');
    const quiet = await connect(host, { avatarId: 'echo-quiet' });
    await quiet.next('ready');
    expect((await quiet.ask('first')).text).toBe('first');
    expect(quiet.messages.filter((m) => m.type === 'assistant_done').length).toBe(1);
  });

  it('a REST endpoint gets the wake-up message as the first CHAT, right after LOGIN, and the avatar speaks its answer', async () => {
    const before = rest.events().length;
    const c = await connect(host, { avatarId: 'rest-wake' });
    const { sessionId } = await c.next('ready');
    expect((await c.next('assistant_done')).text).toBe(`REST says: ${WAKE}`);
    const events = rest
      .events()
      .slice(before)
      .filter((e) => e.sessionId === sessionId);
    expect(events.map((e) => [e.event, e.message])).toEqual([
      ['LOGIN', undefined],
      ['CHAT', WAKE],
    ]);
  });

  it('a language model answers the wake-up message as the first user turn; its answer is the greeting', async () => {
    const c = await connect(host, { avatarId: 'llm-wake' });
    await c.next('ready');
    expect((await c.next('assistant_done')).text).toBe(`You asked: ${WAKE}`);
    expect(lastAsked()).toBe(WAKE);
    await c.ask('And breakfast?');
    const body = openai.chats().at(-1)!.json() as { messages: { role: string; content: string }[] };
    expect(body.messages.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([WAKE, `You asked: ${WAKE}`, 'And breakfast?']);
  });

  it('Dialogflow ES answers the wake-up message', async () => {
    const c = await connect(host, { avatarId: 'es-wake' });
    await c.next('ready');
    expect((await c.next('assistant_done')).text).toBe(`ES proj-es answers: ${WAKE}`);
  });

  it('a realtime engine answers the wake-up message, but a configured realtime greeting wins', async () => {
    const c = await connect(host, { avatarId: 'rt-wake' });
    await c.next('ready');
    expect((await c.next('assistant_done')).text).toBe(`Realtime heard: ${WAKE}`);
    const asked = () =>
      openai.realtimeMessages.filter((m) => m.type === 'conversation.item.create' && JSON.stringify(m).includes(WAKE)).length;
    const n = asked();
    expect(n).toBeGreaterThan(0);
    const g = await connect(host, { avatarId: 'rt-greeting' });
    expect((await g.next('ready')).greeting).toBe('Welcome to Parla!');
    expect((await g.next('assistant_done')).text).toBe('Welcome to Parla!');
    expect((await g.ask('hello')).text).toBe('Realtime heard: hello');
    expect(asked()).toBe(n);
  });
});

describe('Send Chat History', () => {
  it('with the bit every REST event carries the conversation so far with times; without it, none', async () => {
    const c = await connect(host, { avatarId: 'rest-history' });
    const { sessionId } = await c.next('ready');
    await c.ask('one');
    await c.ask('two');
    await ended(c);
    await expect
      .poll(() =>
        rest
          .events()
          .filter((e) => e.sessionId === sessionId)
          .map((e) => e.event),
      )
      .toEqual(['LOGIN', 'CHAT', 'CHAT', 'LOGOUT']);
    const [login, chat1, chat2, logout] = rest.events().filter((e) => e.sessionId === sessionId) as unknown as {
      history: { role: string; text: string; at: string }[];
    }[];
    expect(login!.history).toEqual([]);
    expect(chat1!.history).toEqual([]);
    expect(chat2!.history.map((h) => [h.role, h.text])).toEqual([
      ['user', 'one'],
      ['assistant', 'REST says: one'],
    ]);
    expect(Date.parse(chat2!.history[0]!.at)).not.toBeNaN();
    expect(logout!.history.length).toBe(2);

    const n = await connect(host, { avatarId: 'rest-no-history' });
    const other = (await n.next('ready')).sessionId;
    await n.ask('one');
    await n.ask('two');
    expect(
      rest
        .events()
        .filter((e) => e.sessionId === other)
        .every((e) => !('history' in e)),
    ).toBe(true);
  });

  it('bounds the history a REST endpoint gets to the last 50 messages and 32 KB, newest kept', async () => {
    const c = await connect(host, { avatarId: 'rest-history' });
    const { sessionId } = await c.next('ready');
    const big = 'x'.repeat(3000);
    for (let i = 0; i < 28; i++) await c.ask(`${i} ${i % 4 === 0 ? big : 'short'}`);
    const last = rest
      .events()
      .filter((e) => e.sessionId === sessionId)
      .at(-1) as unknown as { history: { role: string; text: string }[] };
    expect(last.history.length).toBeLessThanOrEqual(50);
    expect(Buffer.byteLength(JSON.stringify(last.history))).toBeLessThanOrEqual(32 * 1024 + 50 * 80);
    expect(last.history.at(-1)!.text).toBe('REST says: 26 short');
  });

  it('Dialogflow CX gets the history as the session parameter `history`, ES in the query payload, and neither without the bit', async () => {
    for (const id of ['cx-history', 'es-history', 'cx-no-history']) {
      const c = await connect(host, { avatarId: id });
      await c.next('ready');
      await c.ask('first question');
      await c.ask('second question');
    }
    const intents = google.requests
      .filter((r) => r.path.endsWith(':detectIntent'))
      .map(
        (r) => r.json() as { queryInput: unknown; queryParams?: { parameters?: { history: unknown[] }; payload?: { history: unknown[] } } },
      );
    const [cx1, cx2, es1, es2, no1, no2] = intents.slice(-6);
    expect(cx1!.queryParams?.parameters?.history).toEqual([]);
    expect(cx2!.queryParams?.parameters?.history).toMatchObject([
      { role: 'user', text: 'first question' },
      { role: 'assistant', text: expect.stringContaining('first question') },
    ]);
    expect(es1!.queryParams?.payload?.history).toEqual([]);
    expect(es2!.queryParams?.payload?.history).toHaveLength(2);
    expect(no1!.queryParams).toBeUndefined();
    expect(no2!.queryParams).toBeUndefined();
  });

  it('a language model keeps its own multi-turn context whatever the bit says', async () => {
    const c = await connect(host, { avatarId: 'llm-no-bit' });
    await c.next('ready');
    await c.ask('My name is Ada');
    await c.ask('What is my name?');
    const body = openai.chats().at(-1)!.json() as { messages: { role: string; content: string }[] };
    expect(body.messages.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
      'My name is Ada',
      'You asked: My name is Ada',
      'What is my name?',
    ]);
  });
});

describe('Transcription Streaming and Handle STT Response in ready', () => {
  it('tells the player to hand speech to the host page and to stream transcripts; an avatar without them is told neither', async () => {
    const on = await connect(host, { avatarId: 'streaming' });
    expect(await on.next('ready')).toMatchObject({ handleSttResponse: true, transcriptionStreaming: true });
    const off = await connect(host, { avatarId: 'echo-quiet' });
    const ready = await off.next('ready');
    expect(ready.handleSttResponse).toBeUndefined();
    expect(ready.transcriptionStreaming).toBe(false);
    expect(ready.transcriptUrl).toBeUndefined();
  });
});

describe('Summaries', () => {
  const summaryOf = async (id: string) =>
    (await server.ctx.db.selectFrom('conversations').select('summary').where('id', '=', id).executeTakeFirst())?.summary ?? null;

  it("writes a summary with the avatar's model at the end and gives it to the same verified user's next conversation as memory", async () => {
    const c = await connect(host, { avatarId: 'llm-summary' });
    const { sessionId } = await c.next('ready');
    await c.ask('I am Ada and I want a room with a view');
    const chats = openai.chats().length;
    await ended(c);
    await expect.poll(() => summaryOf(sessionId)).toMatch(/^You asked: /);
    const summaryRequest = openai.chats()[chats]!.json() as { messages: { role: string; content: string }[] };
    expect(summaryRequest.messages[0]!.content).toContain('Summarise the following conversation');
    expect(summaryRequest.messages[1]!.content).toContain('User: I am Ada and I want a room with a view');
    const summary = (await summaryOf(sessionId))!;

    const again = await connect(host, { avatarId: 'llm-summary' });
    await again.next('ready');
    await again.ask('Hello again');
    const system = (openai.chats().at(-1)!.json() as { messages: { role: string; content: string }[] }).messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain(`What you remember of this user's previous conversation: ${summary}`);
  });

  it("summarises a REST avatar's conversation with the product's model and sends the memory as `summary`", async () => {
    const c = await connect(host, { avatarId: 'rest-summary' });
    const { sessionId } = await c.next('ready');
    await c.ask('Book me a table for two');
    await ended(c);
    await expect.poll(() => summaryOf(sessionId)).toMatch(/REST says: Book me a table for two/);
    const again = await connect(host, { avatarId: 'rest-summary' });
    const next = (await again.next('ready')).sessionId;
    await again.ask('hi');
    const chat = rest
      .events()
      .filter((e) => e.sessionId === next && e.event === 'CHAT')
      .at(-1) as unknown as { summary?: string };
    expect(chat.summary).toBe(await summaryOf(sessionId));
  });

  it('without Summary Enabled nothing is summarised and nothing is remembered', async () => {
    const c = await connect(host, { avatarId: 'llm-no-summary' });
    const { sessionId } = await c.next('ready');
    await c.ask('Remember me');
    // Only this conversation's calls: another test's conversation may be summarised meanwhile.
    const mine = () => openai.chats().filter((chat) => JSON.stringify(chat).includes('Remember me')).length;
    const chats = mine();
    await ended(c);
    await new Promise((r) => setTimeout(r, 300));
    expect(mine()).toBe(chats);
    expect(await summaryOf(sessionId)).toBeNull();
    const again = await connect(host, { avatarId: 'llm-no-summary' });
    await again.next('ready');
    await again.ask('Hello');
    const system = (openai.chats().at(-1)!.json() as { messages: { content: string }[] }).messages[0]!;
    expect(system.content).not.toContain('What you remember');
  });
});

describe('billing authorisation', () => {
  const record = (id: string) =>
    server.ctx.db.selectFrom('conversations').select(['end_reason', 'end_detail']).where('id', '=', id).executeTakeFirstOrThrow();
  const tick = async (seconds: number) => {
    server.advance(seconds * 1000);
    await server.app.runtime.tickAll();
  };

  it('calls the billing URL when the conversation opens and every ping period, with the Authorization header and the session ids', async () => {
    const before = billing.calls().length;
    const c = await connect(host, { avatarId: 'billed' }, { type: 'hello', deviceId: 'dev-b', userId: 'user-b' });
    const { sessionId } = await c.next('ready');
    await expect.poll(() => billing.calls().length).toBe(before + 1);
    await tick(10);
    expect(billing.calls().length).toBe(before + 1);
    await tick(25);
    expect(billing.calls().length).toBe(before + 2);
    const [start, ping] = billing.calls().slice(before);
    expect(start).toMatchObject({
      auth: 'Bearer billing-secret-123',
      body: { event: 'start', sessionId, avatarId: 'billed', userId: 'user-b', deviceId: 'dev-b' },
    });
    expect(ping!.body.event).toBe('ping');
    expect((await c.ask('still here')).text).toBe('still here');
  });

  it('a refusal at the start ends the conversation with a clear notice and the reason on its record', async () => {
    billing.mode = 'refuse';
    const c = await connect(host, { avatarId: 'billed' });
    const { sessionId } = await c.next('ready');
    expect(await c.next('error')).toMatchObject({ code: ErrorCode.AuthenticationFailed, message: BILLING_REFUSED_MESSAGE });
    expect((await c.next('bye')).reason).toBe('billing');
    expect((await c.closed).code).toBe(CLOSE_CODES.authenticationFailed);
    await expect
      .poll(() => record(sessionId))
      .toMatchObject({ end_reason: 'billing', end_detail: 'billing authorisation refused (HTTP 402)' });
  });

  it('a refusal in a ping ({authorized: false}) ends a running conversation', async () => {
    const c = await connect(host, { avatarId: 'billed' });
    const { sessionId } = await c.next('ready');
    await c.ask('hello');
    billing.mode = 'deny-body';
    await tick(31);
    expect((await c.next('error')).message).toBe(BILLING_REFUSED_MESSAGE);
    await c.closed;
    expect((await record(sessionId)).end_detail).toBe('billing authorisation refused (authorized: false)');
  });

  it('three failed calls in a row end the conversation; a success in between starts the count again', async () => {
    const before = billing.calls().length;
    const c = await connect(host, { avatarId: 'billed' });
    const { sessionId } = await c.next('ready');
    // The opening call succeeds first (it may still be under way when ready arrives).
    await expect.poll(() => billing.calls().length).toBe(before + 1);
    billing.mode = 'fail';
    await tick(31);
    await tick(5);
    billing.mode = 'ok';
    await tick(5);
    billing.mode = 'fail';
    await tick(31);
    await tick(5);
    expect(c.messages.some((m) => m.type === 'error')).toBe(false);
    await tick(5);
    expect((await c.next('error')).message).toBe(BILLING_UNREACHABLE_MESSAGE);
    await c.closed;
    expect((await record(sessionId)).end_detail).toMatch(/HTTP 503.*3 failed calls in a row/);
  });

  it('a billing URL the outbound guard refuses is never called: three refused calls end the conversation', async () => {
    const c = await connect(host, { avatarId: 'billed-private' });
    const { sessionId } = await c.next('ready');
    await tick(5);
    await tick(5);
    expect((await c.next('error')).message).toBe(BILLING_UNREACHABLE_MESSAGE);
    expect((await record(sessionId)).end_detail).toMatch(/refused/);
  });
});
