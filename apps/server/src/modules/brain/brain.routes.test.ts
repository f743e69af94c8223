import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeechVoiceProvider } from '@parla/shared/enums';
import { BRAIN_MESSAGES as M } from '@parla/shared/schemas/brain';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { assertNoServerErrors } from '../../../test/bad-input';
import { createTestServer, type TestServer } from '../../../test/harness';
import { STAND_IN_AGENTS, STAND_IN_KEYS } from '../../../test/stand-ins/keys';
import { startProviderStandIns, type ProviderStandIns } from '../../../test/stand-ins/providers';

let server: TestServer;
let standIns: ProviderStandIns;
let user: TestAccount;
let catalogue: BrainCatalogue;

beforeAll(async () => {
  standIns = await startProviderStandIns();
  server = await createTestServer({ OUTBOUND_ALLOW: standIns.allow, PROVIDER_URL_OVERRIDES: standIns.overrides });
  user = await createCustomer(server, 'brain');
  catalogue = (await server.inject({ method: 'GET', url: '/api/brain/catalogue', token: user.token })).json();
});
afterAll(async () => {
  await server.close();
  await standIns.close();
});

const post = (url: string, payload: unknown, token: string | null = user.token) =>
  server.inject({ method: 'POST', url, payload: payload as object, token });
const base = (id: string) => catalogue.llmProviders.find((p) => p.id === id)!.baseUrl;

describe('the provider catalogue', () => {
  it("says whether Simple mode's own language model is configured (LLM_BASE_URL)", async () => {
    expect(catalogue.serverLlm).toBe(false);
    const withLlm = await createTestServer({ LLM_BASE_URL: 'http://127.0.0.1:9/v1' });
    try {
      const u = await createCustomer(withLlm, 'brainllm');
      expect((await withLlm.inject({ method: 'GET', url: '/api/brain/catalogue', token: u.token })).json().serverLlm).toBe(true);
    } finally {
      await withLlm.close();
    }
  });

  it('offers the providers at the addresses this server reaches', async () => {
    expect(base('openai')).toBe(`${standIns.origin}/openai/v1`);
    expect(base('xai')).toBe('https://api.x.ai/v1');
    expect(catalogue.realtimeProviders[0]!.url).toBe(`ws://127.0.0.1:${standIns.port}/openai/v1/realtime`);
    expect(catalogue.interruptOptions.map((o) => o.key)).toEqual([
      'allow_interruptions',
      'min_interruption_duration',
      'min_interruption_words',
    ]);
    expect(catalogue.singleModeModelsList[0]).toBe('llama-3.3-70b-versatile');
  });

  it('needs a session', async () => {
    expect((await server.inject({ method: 'GET', url: '/api/brain/catalogue', token: null })).statusCode).toBe(401);
    expect((await post('/api/llm/models', { baseUrl: base('openai'), apiKey: 'x' }, null)).statusCode).toBe(401);
  });
});

describe('LLM models and assistants', () => {
  it('lists the models of an OpenAI-compatible base URL', async () => {
    const res = await post('/api/llm/models', { baseUrl: base('openai'), apiKey: STAND_IN_KEYS.openai });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ models: ['gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini', 'o4-mini'] });
    const seen = standIns.requests.at(-1)!;
    expect(seen.url).toBe('/openai/v1/models');
    expect(seen.headers.authorization).toBe(`Bearer ${STAND_IN_KEYS.openai}`);
  });

  it('lists Gemini models from its own API with the key in the query', async () => {
    const res = await post('/api/llm/models', { baseUrl: base('gemini'), apiKey: STAND_IN_KEYS.gemini });
    expect(res.json()).toEqual({ models: ['gemini-1.5-pro', 'gemini-2.0-flash'] });
  });

  it('says the URL or key is wrong when the provider refuses', async () => {
    const res = await post('/api/llm/models', { baseUrl: base('openai'), apiKey: 'sk-wrong' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([M.invalidUrlOrKey]);
  });

  it('refuses base URLs that are not offered and requests without a key', async () => {
    const res = await post('/api/llm/models', { baseUrl: 'http://169.254.169.254/latest', apiKey: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([M.baseUrlUnknown]);
    expect((await post('/api/llm/models', { baseUrl: base('openai') })).json().errors).toEqual([M.apiKeyRequired]);
    expect((await post('/api/llm/models', {})).json().errors).toEqual([M.baseUrlRequired]);
  });

  it('lists OpenAI assistants newest first and says when the key is invalid', async () => {
    const res = await post('/api/llm/assistants', { baseUrl: base('openai'), apiKey: STAND_IN_KEYS.openai });
    expect(res.json()).toEqual({
      assistants: [
        { id: 'asst_standin_support', name: 'Support desk', model: 'gpt-4o-mini' },
        { id: 'asst_standin_sales', name: 'Sales helper', model: 'gpt-4o' },
      ],
    });
    expect(standIns.requests.at(-1)!.url).toBe('/openai/v1/assistants?order=desc&limit=100');
    const bad = await post('/api/llm/assistants', { baseUrl: base('openai'), apiKey: 'sk-wrong' });
    expect(bad.json().errors).toEqual([M.invalidKey]);
    const groq = await post('/api/llm/assistants', { baseUrl: base('groq'), apiKey: 'k' });
    expect(groq.json().errors).toEqual([M.baseUrlUnknown]);
  });

  it('asks for the stored key to be entered again when there is no saved avatar to take it from', async () => {
    const res = await post('/api/llm/models', { baseUrl: base('openai'), apiKey: '••••cdef' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([M.storedKeyMissing]);
    const other = await post('/api/llm/models', { baseUrl: base('openai'), apiKey: '••••cdef', avatarId: 'not-mine' });
    expect(other.statusCode).toBe(404);
  });
});

describe('text-to-speech voices', () => {
  const list = (body: object) => post('/api/tts/list_voices', body);

  it('reads Azure voices of a region with the subscription key', async () => {
    const res = await list({ ttsProvider: SpeechVoiceProvider.Azure, azureSubscriptionKey: STAND_IN_KEYS.azure, ttsRegion: 'westeurope' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ttsProvider).toBe(SpeechVoiceProvider.Azure);
    expect(res.json().ttsVoices[0]).toEqual({
      id: 'de-DE-KatjaNeural',
      name: 'Katja',
      languageCode: 'de-DE',
      languageName: 'German (Germany)',
      gender: 'Female',
      supportedEngines: ['Neural'],
      custom: false,
    });
    expect(standIns.requests.at(-1)!.url).toBe('/azure/westeurope/cognitiveservices/voices/list');
    expect((await list({ ttsProvider: SpeechVoiceProvider.Azure, azureSubscriptionKey: STAND_IN_KEYS.azure })).json().errors).toEqual([
      M.regionRequired,
    ]);
    expect(
      (await list({ ttsProvider: SpeechVoiceProvider.Azure, azureSubscriptionKey: STAND_IN_KEYS.azure, ttsRegion: 'evil.example' })).json()
        .errors,
    ).toEqual([M.regionRequired]);
  });

  it('signs the Polly voice list and lists each voice per engine over every page', async () => {
    const res = await list({
      ttsProvider: SpeechVoiceProvider.Polly,
      pollyAccessKey: STAND_IN_KEYS.pollyAccessKey,
      pollySecretKey: STAND_IN_KEYS.pollySecretKey,
      ttsRegion: 'us-east-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res
      .json()
      .ttsVoices.map((v: { id: string }) => v.id)
      .sort();
    expect(ids).toEqual([
      'Amy:neural',
      'Amy:standard',
      'Hans:standard',
      'Ivy:standard',
      'Joanna:neural',
      'Joanna:standard',
      'Matthew:neural',
      'Matthew:standard',
    ]);
    expect(res.json().ttsVoices.find((v: { id: string }) => v.id === 'Joanna:neural').name).toBe('Joanna (Neural)');
    const wrong = await list({
      ttsProvider: SpeechVoiceProvider.Polly,
      pollyAccessKey: STAND_IN_KEYS.pollyAccessKey,
      pollySecretKey: 'wrong-secret',
      ttsRegion: 'us-east-1',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([M.voicesFailed]);
  });

  it('reads ElevenLabs, Cartesia (paged) and Neuphonic voices', async () => {
    const el = await list({ ttsProvider: 'elevenlabs', elevenLabsAPIKey: STAND_IN_KEYS.elevenlabs });
    expect(el.json().ttsVoices.map((v: { name: string; custom: boolean }) => [v.name, v.custom])).toEqual([
      ['My cloned voice', true],
      ['Rachel', false],
      ['Adam', false],
    ]);
    const ca = await list({ ttsProvider: SpeechVoiceProvider.Cartesia, cartesiaAPIKey: STAND_IN_KEYS.cartesia });
    expect(ca.json().ttsVoices).toHaveLength(3);
    expect(ca.json().ttsVoices[0]).toMatchObject({ name: 'Mein Klon', gender: 'Female', custom: true, languageCode: 'de' });
    const np = await list({ ttsProvider: SpeechVoiceProvider.Neuphonic, neuphonicAPIKey: STAND_IN_KEYS.neuphonic });
    expect(np.json().ttsVoices.map((v: { name: string }) => v.name)).toEqual(['Emily', 'Holly', 'Miguel']);
  });

  it('answers the product voices for the default provider', async () => {
    const res = await list({ ttsProvider: SpeechVoiceProvider.Default, setupMode: 'Simple' });
    expect(res.json().ttsVoices.length).toBeGreaterThan(0);
  });

  it("says 'Failed to retrieve voices' when the key is refused", async () => {
    for (const body of [
      { ttsProvider: SpeechVoiceProvider.Azure, azureSubscriptionKey: 'wrong', ttsRegion: 'eastus' },
      { ttsProvider: SpeechVoiceProvider.ElevenLabs, elevenLabsAPIKey: 'wrong' },
      { ttsProvider: SpeechVoiceProvider.Cartesia, cartesiaAPIKey: 'wrong' },
      { ttsProvider: SpeechVoiceProvider.Neuphonic, neuphonicAPIKey: 'wrong' },
    ]) {
      const res = await list(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors).toEqual([M.voicesFailed]);
    }
    expect((await list({ ttsProvider: 99 })).json().errors).toEqual([M.ttsProviderRequired]);
    expect((await list({ ttsProvider: SpeechVoiceProvider.ElevenLabs })).json().errors).toEqual([M.apiKeyRequired]);
  });
});

describe('speech-to-text languages', () => {
  it('lists Azure locale codes and Google entries with models and locations', async () => {
    const az = await post('/api/stt/list_voices', { sttProvider: 'azure' });
    expect(az.json().languages).toContain('en-US');
    const g = await post('/api/stt/list_voices', { sttProvider: 'google' });
    expect(g.json().languages[0]).toMatchObject({
      code: 'en-US',
      models: expect.arrayContaining(['long']),
      locations: expect.arrayContaining(['global']),
    });
    expect((await post('/api/stt/list_voices', { sttProvider: 'deepgram' })).json().errors).toEqual([M.sttProviderRequired]);
  });
});

describe('the third-party agent check', () => {
  const check = async (agent_id: string, api_key?: string) =>
    (await post('/api/third_party/agent_check', { agent_id, ...(api_key ? { api_key } : {}) })).json();

  it('does not call the provider for short ids', async () => {
    const before = standIns.requests.length;
    expect(await check('')).toEqual({ status: 'idle' });
    expect(await check('agent_0123')).toEqual({ status: 'idle' });
    expect(standIns.requests.length).toBe(before);
  });

  it('tells public, private, invalid key and invalid agent apart', async () => {
    expect(await check(STAND_IN_AGENTS.public)).toEqual({ status: 'public' });
    expect(await check(STAND_IN_AGENTS.private, STAND_IN_KEYS.elevenlabs)).toEqual({ status: 'private' });
    expect(await check(STAND_IN_AGENTS.private)).toEqual({ status: 'invalid_api_key', message: M.checkKeyRequired });
    expect(await check(STAND_IN_AGENTS.private, 'short-key')).toEqual({ status: 'invalid_api_key', message: M.checkKeyRequired });
    expect(await check(STAND_IN_AGENTS.private, 'sk_wrong_but_long_enough_0000')).toEqual({
      status: 'invalid_api_key',
      message: M.checkKeyInvalid,
    });
    expect(await check('agent_unknown_0123456789')).toEqual({ status: 'invalid_agent_id', message: M.checkAgentNotFound });
    expect(await check(STAND_IN_AGENTS.broken)).toEqual({ status: 'invalid_agent_id', message: M.checkFailed });
    const last = standIns.requests.at(-1)!;
    expect(last.url).toBe(`/elevenlabs/v1/convai/conversation/token?agent_id=${STAND_IN_AGENTS.broken}`);
  });
});

describe('bad input', () => {
  it('answers malformed bodies with a 4xx in the contract shape', async () => {
    for (const [url, keys] of [
      ['/api/tts/list_voices', ['ttsProvider', 'azureSubscriptionKey', 'ttsRegion', 'avatarId']],
      ['/api/stt/list_voices', ['sttProvider']],
      ['/api/llm/models', ['baseUrl', 'apiKey', 'avatarId', 'secretRef']],
      ['/api/llm/assistants', ['baseUrl', 'apiKey']],
      ['/api/third_party/agent_check', ['agent_id', 'api_key']],
    ] as const) {
      await assertNoServerErrors(server, { method: 'POST', url, keys: [...keys], token: user.token }, 25);
    }
  });
});

describe('account info', () => {
  it('carries the provider table of the brain (spec 2 §7)', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/account_info', token: user.token });
    const d = res.json().accountDetails;
    expect(d.llmProviders).toEqual(catalogue.llmProviders);
    for (const key of [
      'sttProviders',
      'ttsProviders',
      'singleModeModelsList',
      'googlePreferredSttLanguages',
      'interruptOptions',
      'vadOptions',
      'defaultVoices',
      'agentPipelineList',
    ]) {
      expect(d[key], key).toBeDefined();
    }
    expect(d.Email).toBe(user.email);
  });
});
