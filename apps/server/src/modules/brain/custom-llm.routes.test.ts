// A custom OpenAI-compatible base URL (Composite mode): the save accepts it, the outbound guard's
// rules refuse private, loopback and plain-http addresses the allow-list does not name, the model
// look-up goes through the guard with the avatar's stored key, and the runtime answers with it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AvatarEngine } from '@parla/shared/enums';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { BRAIN_MESSAGES as M } from '@parla/shared/schemas/brain';
import { CUSTOM_LLM_MESSAGES as C } from '@parla/shared/schemas/custom-llm';
import { SubscriptionType } from '@parla/shared/plans';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { closeAll, connect, listen } from '../../../test/conversation-client';
import { createTestServer, type TestServer } from '../../../test/harness';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../../test/stand-ins/runtime/openai';
import { save } from '../../../test/avatar-requests';

let server: TestServer;
let host: string;
let llm: OpenAiStandIn;
let owner: TestAccount;
let appearance: { id: string; type: string };

beforeAll(async () => {
  llm = await startOpenAiStandIn();
  llm.reply = (messages, req) => ({
    content: [`${(req.json() as { model: string }).model} says: `, String(messages.at(-1)?.content ?? '')],
  });
  server = await createTestServer({ OUTBOUND_ALLOW: llm.allow });
  host = await listen(server);
  owner = await createCustomer(server, 'customllm');
  await server.ctx.db.updateTable('users').set({ subscription_type: SubscriptionType.ENTERPRISE }).where('id', '=', owner.id).execute();
  appearance = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' }))
    .json()
    .avatars.find((a: { type: string }) => a.type === '2d');
});
afterEach(async () => {
  await closeAll();
});
afterAll(async () => {
  await server.close();
  await llm.close();
});

const base = () => `${llm.url}/v1`;

async function create(): Promise<Avatar> {
  const res = await save(server, owner.token, { name: 'Custom', dhType: appearance.type, appearanceId: appearance.id });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent;
}

function withLlm(a: Avatar, llmBlock: Record<string, unknown>, mode = 'Composite') {
  return {
    ...a,
    setupMode: mode,
    nlpEngine: AvatarEngine.LargeLanguageModel,
    customData: {
      ...a.customData,
      agent_pipeline_config: {
        ...a.customData.agent_pipeline_config,
        llm: { provider: 'custom', api_key: STAND_IN_KEY, model: 'stand-in-model', custom_text: 'We rent boats.', ...llmBlock },
      },
    },
  };
}

const models = (body: object) => server.inject({ method: 'POST', url: '/api/llm/models', payload: body, token: owner.token });

describe('a custom OpenAI-compatible base URL', () => {
  it('is saved in Composite mode, answered with the key masked, and the avatar answers with its model', async () => {
    const a = await create();
    const res = await save(server, owner.token, withLlm(a, { base_url: `${base()}/` }));
    expect(res.statusCode, res.body).toBe(200);
    const llmBlock = (res.json().agent as Avatar).customData.agent_pipeline_config!.llm!;
    expect(llmBlock).toMatchObject({ provider: 'custom', base_url: `${base()}/`, model: 'stand-in-model' });
    expect(String(llmBlock.api_key)).toMatch(/^••••/);
    expect(res.body).not.toContain(STAND_IN_KEY);

    const c = await connect(host, { avatarId: a.id, token: a.token });
    expect((await c.next('ready')).engine).toBe('Large Language Model');
    await c.next('assistant_done'); // the greeting: the model's answer to the wake-up message
    const done = await c.ask('Do you rent kayaks?');
    expect(done.text).toBe('stand-in-model says: Do you rent kayaks?');
    const chat = llm.chats().at(-1)!;
    expect(chat.path).toBe('/v1/chat/completions');
    expect(chat.headers.authorization).toBe(`Bearer ${STAND_IN_KEY}`);
    expect(server.logs.join('')).not.toContain(STAND_IN_KEY);
    // The end: the model writes the conversation's summary (Summary Enabled is on by default).
    c.send({ type: 'bye' });
    await c.closed;
    await expect.poll(() => llm.chats().length).toBe(3);
  });

  it("refuses private, loopback and metadata addresses with the guard's reason, and plain http off the allow-list", async () => {
    const a = await create();
    const cases: [string, string][] = [
      ['http://127.0.0.1:9/v1', `${C.refused}: private or reserved address.`],
      ['https://127.0.0.1:9/v1', `${C.refused}: private or reserved address.`],
      ['https://169.254.169.254/latest', `${C.refused}: private or reserved address.`],
      ['https://[::1]/v1', `${C.refused}: private or reserved address.`],
      ['https://10.0.0.7/v1', `${C.refused}: private or reserved address.`],
      ['https://localhost/v1', `${C.refused}: internal host name.`],
      ['https://llm.internal/v1', `${C.refused}: internal host name.`],
      ['http://llm.example.com/v1', C.httpsRequired],
      ['https://user:pw@llm.example.com/v1', C.baseUrlInvalid],
      ['https://llm.example.com/v1?x=1', C.baseUrlInvalid],
      ['ftp://llm.example.com/v1', C.baseUrlInvalid],
    ];
    for (const [url, message] of cases) {
      const res = await save(server, owner.token, withLlm(a, { base_url: url }));
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors, url).toEqual([message]);
    }
    // Only the first test's greeting, question and summary: no refused address was called.
    expect(llm.chats()).toHaveLength(3);
  });

  it('is offered in Composite mode only and never with an assistant', async () => {
    const a = await create();
    const third = await save(server, owner.token, {
      ...withLlm(a, { base_url: base() }, 'None'),
      nlpEngine: AvatarEngine.CUSTOM_STT_LLM_TTS,
    });
    expect(third.statusCode).toBe(400);
    expect(third.json().errors).toContain(C.compositeOnly);
    const assistant = await save(server, owner.token, withLlm(a, { base_url: base(), assistant_id: 'asst_1' }));
    expect(assistant.statusCode).toBe(400);
    expect(assistant.json().errors).toEqual([C.assistantsOpenAiOnly]);
    // Without the custom choice an unknown address is still refused as before.
    const unknown = await save(server, owner.token, withLlm(a, { provider: 'openai', base_url: base() }));
    expect(unknown.json().errors).toEqual([M.baseUrlUnknown]);
  });

  it('lists the models of the custom URL through the guard, with a typed or the stored key', async () => {
    const typed = await models({ baseUrl: base(), apiKey: STAND_IN_KEY, custom: true });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(typed.json()).toEqual({ models: ['stand-in-model'] });

    const a = await create();
    const saved = await save(server, owner.token, withLlm(a, { base_url: base() }));
    const masked = (saved.json().agent as Avatar).customData.agent_pipeline_config!.llm!.api_key as string;
    const stored = await models({ baseUrl: base(), apiKey: masked, avatarId: a.id, custom: true });
    expect(stored.json()).toEqual({ models: ['stand-in-model'] });
    // The stored key never goes to another address.
    const elsewhere = await models({ baseUrl: 'https://llm.example.com/v1', apiKey: masked, avatarId: a.id, custom: true });
    expect(elsewhere.json().errors).toEqual([M.storedKeyMissing]);

    const wrongKey = await models({ baseUrl: base(), apiKey: 'sk-wrong', custom: true });
    expect(wrongKey.statusCode).toBe(400);
    expect(wrongKey.json().errors).toEqual([M.invalidUrlOrKey]);
  });

  it('refuses model look-ups at private addresses before any connection, unless allow-listed', async () => {
    const before = llm.requests.length;
    for (const url of ['https://127.0.0.1:1/v1', 'https://169.254.169.254/v1', 'http://0x7f000001/v1', 'https://[::ffff:127.0.0.1]/v1']) {
      const res = await models({ baseUrl: url, apiKey: 'k', custom: true });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().failReason, url).toBe('BASE_URL_REFUSED');
    }
    expect(llm.requests.length).toBe(before);
  });
});
