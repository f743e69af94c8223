// The Brain tab's Test (issue 39 item 3): the unsaved brain asked one real question through the
// runtime's engine and the guarded client; the outcome in the customer's words; nothing saved.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvatarEngine, SttProvider } from '@parla/shared/enums';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import type { Avatar } from '@parla/shared/schemas/avatar';
import type { BrainForm } from '@parla/shared/schemas/brain-forms';
import { BRAIN_TEST_MESSAGES as M, BRAIN_TEST_QUESTION, brainTestFailures, type BrainTestResponse } from '@parla/shared/schemas/brain-test';
import { defaultBrainForm, formsToAvatarFields, formsToPipeline } from '@parla/shared/schemas/brain-pipeline';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import { SubscriptionType } from '@parla/shared/plans';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { save } from '../../../test/avatar-requests';
import { createTestServer, type TestServer } from '../../../test/harness';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../../test/stand-ins/runtime/openai';
import { DEEPGRAM_KEY, ELEVEN_KEY, startSpeechStandIn, type SpeechStandIn } from '../../../test/stand-ins/runtime/speech';

let server: TestServer;
let openai: OpenAiStandIn;
let speech: SpeechStandIn;
let rest: Server;
let restUrl: string;
let owner: TestAccount;
let other: TestAccount;
let c: BrainCatalogue;
let appearance: CatalogueAvatar;
const restEvents: { event: string; auth: string | undefined }[] = [];

/** A customer's REST endpoint: /ok answers, /denied refuses the key, /empty answers nothing. */
function restEndpoint(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  req.on('data', (d: Buffer) => (body += d.toString()));
  req.on('end', () => {
    const event = (JSON.parse(body) as { event: string }).event;
    restEvents.push({ event, auth: req.headers.authorization });
    if (req.url === '/denied') return void res.writeHead(401).end('bad key');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(event === 'CHAT' && req.url === '/ok' ? { reply: 'Hello from the endpoint.' } : {}));
  });
}

beforeAll(async () => {
  openai = await startOpenAiStandIn();
  speech = await startSpeechStandIn();
  rest = createServer(restEndpoint);
  await new Promise<void>((r) => rest.listen(0, '127.0.0.1', r));
  const port = (rest.address() as AddressInfo).port;
  restUrl = `http://127.0.0.1:${port}`;
  // The model's public host is pointed at its loopback stand-in, as the conversations' tests do.
  server = await createTestServer({
    OUTBOUND_ALLOW: `${openai.allow},${speech.allow},127.0.0.1:${port}`,
    PROVIDER_URL_OVERRIDES: `api.openai.com=${openai.url},api.deepgram.com=${speech.url},api.elevenlabs.io=${speech.url}`,
    EMBEDDED_VOICE_WORKERS: '1',
  });
  owner = await createCustomer(server, 'braintest');
  other = await createCustomer(server, 'braintest-other');
  // Several avatars below: no plan limit in the way.
  await server.ctx.db.updateTable('users').set({ subscription_type: SubscriptionType.ENTERPRISE }).where('id', '=', owner.id).execute();
  c = (await server.inject({ method: 'GET', url: '/api/brain/catalogue', token: owner.token })).json();
  appearance = (await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars[0];
});
afterAll(async () => {
  await server.close();
  await openai.close();
  await speech.close();
  await new Promise((r) => rest.close(r));
});

async function create(account = owner): Promise<Avatar> {
  const res = await save(server, account.token, { name: 'Tested', dhType: appearance.type, appearanceId: appearance.id });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().agent;
}

/** The editor's payload for a brain (as the Brain tab sends it to the save and to the test). */
function withBrain(a: Avatar, engine: number, patch: (f: BrainForm) => void) {
  const f = defaultBrainForm(c);
  f.setupMode = 'Composite';
  f.nlpEngine = engine;
  patch(f);
  return {
    ...a,
    ...formsToAvatarFields(f),
    setupMode: f.setupMode,
    nlpEngine: f.nlpEngine,
    customData: { ...a.customData, agent_pipeline_config: { ...a.customData.agent_pipeline_config, ...formsToPipeline(f, {}, c) } },
  };
}

const restBrain = (a: Avatar, path: string, key = 'rest-key-0123456789-abcd') =>
  withBrain(a, AvatarEngine.RestEndpoint, (f) => (f.restEndpoint = { ...f.restEndpoint, base_url: `${restUrl}${path}`, api_key: key }));

const llmBrain = (a: Avatar, key: string) =>
  withBrain(a, AvatarEngine.LargeLanguageModel, (f) => {
    f.llmDetails = {
      ...f.llmDetails,
      url: c.llmProviders.find((p) => p.id === 'openai')!.baseUrl,
      llmProvider: 'openai',
      llmAPIKey: key,
      llmModel: 'gpt-4o-mini',
      custom_text: 'We sell bikes.',
    };
  });

async function test(account: TestAccount, body: object) {
  return server.inject({ method: 'POST', url: '/api/brain/test', token: account.token, payload: body });
}

describe('the Brain tab test', () => {
  it('asks an unsaved REST endpoint one question and shows its answer, leaving the saved avatar as it was', async () => {
    const a = await create();
    restEvents.length = 0;
    const res = await test(owner, restBrain(a, '/ok'));
    expect(res.statusCode, res.body).toBe(200);
    const r: BrainTestResponse = res.json();
    expect(r).toMatchObject({ ok: true, reply: 'Hello from the endpoint.' });
    expect(restEvents.map((e) => e.event).slice(0, 2)).toEqual(['LOGIN', 'CHAT']);
    expect(restEvents[0]!.auth).toBe('Bearer rest-key-0123456789-abcd');
    const after = (await server.inject({ method: 'GET', url: `/api/avatar/${a.id}`, token: owner.token })).json();
    expect(after.agent ?? after).toMatchObject({ nlpEngine: AvatarEngine.EchoTest, updated: a.updated });
  });

  it('says a private address is refused, in the customer words, instead of failing at the visitor', async () => {
    const a = await create();
    const r: BrainTestResponse = (
      await test(
        owner,
        withBrain(
          a,
          AvatarEngine.RestEndpoint,
          (f) => (f.restEndpoint = { ...f.restEndpoint, base_url: 'http://10.1.2.3/bot', api_key: 'k-123456' }),
        ),
      )
    ).json();
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/^The address was refused: .+\. Only public internet addresses can be reached from Parla\.$/);
  });

  it('says a refused key and an empty answer plainly', async () => {
    const a = await create();
    expect((await test(owner, restBrain(a, '/denied'))).json()).toMatchObject({ ok: false, message: M.keyRefused(401) });
    expect((await test(owner, restBrain(a, '/empty'))).json()).toMatchObject({ ok: false, message: M.emptyAnswer });
    expect((await test(owner, llmBrain(a, 'sk-wrong-key-0123456789abcdef'))).json()).toMatchObject({
      ok: false,
      message: M.keyRefused(401),
    });
  });

  it('asks a language model through the same engine the conversations use', async () => {
    const a = await create();
    const r: BrainTestResponse = (await test(owner, llmBrain(a, STAND_IN_KEY))).json();
    expect(r.ok, r.message).toBe(true);
    expect(r.reply).toBe(`You asked: ${BRAIN_TEST_QUESTION}`);
  });

  it("says the brain's own rules as the save does, and another account's avatar is not found", async () => {
    const a = await create();
    const missing = await test(
      owner,
      withBrain(a, AvatarEngine.RestEndpoint, (f) => (f.restEndpoint = { ...f.restEndpoint, base_url: '', api_key: '' })),
    );
    expect(missing.statusCode).toBe(400);
    const foreign = await test(other, restBrain(a, '/ok'));
    expect(foreign.statusCode).toBe(404);
    expect((await test(owner, { id: a.id })).statusCode).toBe(400);
  });

  it('says there is nothing to test in echo mode', async () => {
    const a = await create();
    expect((await test(owner, a)).json()).toMatchObject({ ok: true, message: M.echo });
  });

  it("lets the server's speech recognition hear a sentence said by the built-in voice, and says a refused key", async () => {
    const a = await create();
    const heard = (key: string) => {
      const body = llmBrain(a, STAND_IN_KEY);
      const f = defaultBrainForm(c);
      f.setupMode = 'Composite';
      f.sttDetails = { ...f.sttDetails, sttProvider: SttProvider.Deepgram, sttAPIKey: key, sttLanguage: 'en-US' };
      const stt = formsToPipeline(f, {}, c).stt;
      return { ...body, customData: { ...body.customData, agent_pipeline_config: { ...body.customData.agent_pipeline_config, stt } } };
    };
    const before = speech.audioBytesReceived;
    const r: BrainTestResponse = (await test(owner, heard(DEEPGRAM_KEY))).json();
    expect(r, r.message).toMatchObject({ ok: true, brainOk: true, hearing: { ok: true, message: M.heard, heard: speech.transcript } });
    // The sentence reached the provider as audio (16-bit samples of about two seconds of speech).
    expect(speech.audioBytesReceived - before).toBeGreaterThan(16_000);
    const refused: BrainTestResponse = (await test(owner, heard('deepgram-wrong-key-0000'))).json();
    expect(refused).toMatchObject({
      ok: false,
      brainOk: true,
      hearing: { ok: false, message: M.hearingFailed(M.keyRefused(401)), heard: null },
    });
    expect(brainTestFailures(refused)).toEqual([M.hearingFailed(M.keyRefused(401))]);
  });

  it('has no hearing to test when the visitors are heard by their browser', async () => {
    const a = await create();
    expect((await test(owner, llmBrain(a, STAND_IN_KEY))).json()).toMatchObject({ ok: true, hearing: null });
  });

  it('opens a third-party agent (the provider hands out a session) and says a refused key', async () => {
    const a = await create();
    const agent = (apiKey: string) => {
      const f = defaultBrainForm(c);
      f.setupMode = 'None';
      f.nlpEngine = AvatarEngine.ElevenLabsConversationAI;
      f.elevenLabsConversationAI = { agent_id: 'agent-private-1', api_key: apiKey, status: 'private', connection_type: 'webrtc' };
      return {
        ...a,
        ...formsToAvatarFields(f),
        setupMode: f.setupMode,
        nlpEngine: f.nlpEngine,
        customData: { ...a.customData, agent_pipeline_config: { ...a.customData.agent_pipeline_config, ...formsToPipeline(f, {}, c) } },
      };
    };
    const before = speech.requests.length;
    const open = await test(owner, agent(ELEVEN_KEY));
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json()).toMatchObject({ ok: true, brainOk: true, message: M.agentReady, reply: null, hearing: null });
    // The session was asked for with the agent's key, as a visitor's start would.
    expect(speech.requests.slice(before).map((r) => r.path)).toContain('/v1/convai/conversation/token');
    expect((await test(owner, agent('eleven-wrong-key-00000000'))).json()).toMatchObject({ ok: false, message: M.keyRefused(401) });
  });
});
