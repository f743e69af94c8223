import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeechVoiceProvider } from '@parla/shared/enums';
import { BRAIN_MESSAGES as M } from '@parla/shared/schemas/brain';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { startCanary, type Canary } from '../../../test/canary';
import { createTestServer, type TestServer } from '../../../test/harness';
import { ssrfVectors } from '../../../test/ssrf-vectors';
import { STAND_IN_AGENTS, STAND_IN_KEYS } from '../../../test/stand-ins/keys';
import { startProviderStandIns, type ProviderStandIns } from '../../../test/stand-ins/providers';

let server: TestServer;
let standIns: ProviderStandIns;
let canary: Canary;
let redirector: Server;
let user: TestAccount;
let c: BrainCatalogue;

beforeAll(async () => {
  canary = await startCanary();
  standIns = await startProviderStandIns();
  // A "provider" whose voice list redirects to the canary: the proxy must not follow it.
  redirector = createServer((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/` }).end());
  await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', () => r()));
  const rport = (redirector.address() as AddressInfo).port;
  server = await createTestServer({
    // Debug level: every log line the server can write is searched for the canary key below.
    LOG_LEVEL: 'debug',
    OUTBOUND_ALLOW: `${standIns.allow},127.0.0.1:${rport}`,
    PROVIDER_URL_OVERRIDES: `${standIns.overrides.replace(/api\.cartesia\.ai=[^,]+/, `api.cartesia.ai=http://127.0.0.1:${rport}`)}`,
  });
  user = await createCustomer(server, 'proxy');
  c = (await server.inject({ method: 'GET', url: '/api/brain/catalogue', token: user.token })).json();
});
afterAll(async () => {
  await server.close();
  await standIns.close();
  await canary.close();
  await new Promise<void>((r) => redirector.close(() => r()));
});

const bodies: string[] = [];
async function proxy(payload: object) {
  const res = await server.inject({ method: 'POST', url: '/api/proxy', payload, token: user.token });
  bodies.push(res.body);
  return res;
}

describe('POST /api/proxy', () => {
  it('reads Deepgram models and checks its key (spec 3 §7)', async () => {
    const models = await proxy({
      url: `${c.endpoints.deepgram}/models`,
      type: 'get',
      headers: { Authorization: `Token ${STAND_IN_KEYS.deepgram}` },
    });
    expect(models.statusCode, models.body).toBe(200);
    expect(models.json().httpStatus).toBe(200);
    expect(models.json().data.stt.map((m: { canonical_name: string }) => m.canonical_name)).toEqual([
      'nova-3-general',
      'nova-2-general',
      'flux-general-en',
    ]);
    const token = await proxy({
      url: `${c.endpoints.deepgram}/auth/token`,
      type: 'GET',
      headers: { Authorization: `Token ${STAND_IN_KEYS.deepgram}` },
    });
    expect(token.json().data.accessor).toBeTruthy();
    const bad = await proxy({ url: `${c.endpoints.deepgram}/auth/token`, headers: { Authorization: 'Token wrong' } });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toMatchObject({ status: 'OK', httpStatus: 401, data: { err_code: 'INVALID_AUTH' } });
  });

  it('reads Neuphonic voices with the key header', async () => {
    const res = await proxy({ url: `${c.endpoints.neuphonic}/voices`, headers: { 'X-API-KEY': STAND_IN_KEYS.neuphonic } });
    expect(res.json().data.data.voices).toHaveLength(3);
  });

  it('adds params to the query', async () => {
    const gemini = c.llmProviders.find((p) => p.id === 'gemini')!;
    const res = await proxy({ url: gemini.modelsUrl, params: { key: STAND_IN_KEYS.gemini } });
    expect(res.json().data.models).toHaveLength(3);
  });

  it('refuses addresses off the allow-list without contacting anything', async () => {
    const before = standIns.requests.length;
    const origin = standIns.origin;
    for (const url of [
      'https://example.com/v1/models',
      'https://api.openai.com.evil.example/v1/models',
      `${origin}/openai/v1/chat/completions`,
      `${origin}/openai/v1/models/../../elevenlabs/v1/user`,
      `${origin}/openai/v1/%2e%2e/models`,
      `${origin}/openai/v1/models%2F..%2F`,
      `http://user:pass@127.0.0.1:${standIns.port}/openai/v1/models`,
      `${origin}/openai/v1/models#x`,
      `https://127.0.0.1:${standIns.port}/openai/v1/models`,
      `${origin}/deepgram/v1/projects`,
    ]) {
      const res = await proxy({ url, headers: { Authorization: `Bearer ${STAND_IN_KEYS.openai}` } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors, url).toEqual([M.proxyNotAllowed]);
    }
    expect(standIns.requests.length).toBe(before);
  });

  it('refuses other methods and headers', async () => {
    const url = `${c.endpoints.neuphonic}/voices`;
    expect((await proxy({ url, type: 'POST' })).json().errors).toEqual(['Only GET requests can be proxied.']);
    expect((await proxy({ url, headers: { Cookie: 'a=b' } })).statusCode).toBe(400);
    expect((await proxy({ url, headers: { 'X-API-KEY': 'a\r\nX-Evil: 1' } })).statusCode).toBe(400);
    expect((await proxy({ url: '' })).json().errors).toEqual([M.notValidUrl]);
  });

  it('does not follow a provider redirect', async () => {
    const res = await proxy({ url: `${c.endpoints.cartesia}/voices`, headers: { 'X-API-Key': 'k' } });
    expect(res.statusCode).toBe(502);
    expect(res.json().errors).toEqual([M.proxyFailed]);
    expect(canary.connections()).toBe(0);
  });

  it(`refuses every SSRF vector with no connection reaching the canary`, async () => {
    const vectors = ssrfVectors(canary.port);
    expect(vectors.length).toBeGreaterThanOrEqual(40);
    const allowed: string[] = [];
    for (const url of vectors) {
      const res = await proxy({ url });
      if (res.statusCode !== 400) allowed.push(`${res.statusCode} ${url}`);
    }
    expect(allowed).toEqual([]);
    expect(canary.connections()).toBe(0);
  });

  it('needs the avatar and a secret reference for a masked key', async () => {
    const url = `${c.endpoints.deepgram}/models`;
    expect((await proxy({ url, headers: { Authorization: 'Token ••••6789' } })).json().errors).toEqual([M.storedKeyMissing]);
    expect((await proxy({ url, headers: { Authorization: 'Token ••••6789' }, secretRef: 'tts' })).json().errors).toEqual([
      M.storedKeyMissing,
    ]);
    expect((await proxy({ url, headers: { Authorization: 'Token ••••6789' }, secretRef: 'stt' })).json().errors).toEqual([
      M.storedKeyMissing,
    ]);
    expect(
      (await proxy({ url, headers: { Authorization: 'Token ••••6789' }, secretRef: 'stt', avatarId: 'someone-elses' })).statusCode,
    ).toBe(404);
  });
});

describe('a canary key sent to every look-up', () => {
  const CANARY = 'sk-canary-9d1f27c4e0b84a6f';

  it('never appears in an answer or a log line', async () => {
    const llm = c.llmProviders.find((p) => p.id === 'openai')!;
    const gemini = c.llmProviders.find((p) => p.id === 'gemini')!;
    const calls: [string, object][] = [
      ['/api/proxy', { url: `${c.endpoints.deepgram}/models`, headers: { Authorization: `Token ${CANARY}` } }],
      ['/api/proxy', { url: `${c.endpoints.elevenlabs}/voices`, headers: { 'xi-api-key': CANARY } }],
      ['/api/proxy', { url: gemini.modelsUrl, params: { key: CANARY } }],
      ['/api/llm/models', { baseUrl: llm.baseUrl, apiKey: CANARY }],
      ['/api/llm/models', { baseUrl: gemini.baseUrl, apiKey: CANARY }],
      ['/api/llm/assistants', { baseUrl: llm.baseUrl, apiKey: CANARY }],
      ['/api/third_party/agent_check', { agent_id: STAND_IN_AGENTS.private, api_key: CANARY }],
      ['/api/tts/list_voices', { ttsProvider: SpeechVoiceProvider.Azure, azureSubscriptionKey: CANARY, ttsRegion: 'eastus' }],
      [
        '/api/tts/list_voices',
        { ttsProvider: SpeechVoiceProvider.Polly, pollyAccessKey: CANARY, pollySecretKey: CANARY, ttsRegion: 'eu-west-1' },
      ],
      ['/api/tts/list_voices', { ttsProvider: SpeechVoiceProvider.ElevenLabs, elevenLabsAPIKey: CANARY }],
      ['/api/tts/list_voices', { ttsProvider: SpeechVoiceProvider.Cartesia, cartesiaAPIKey: CANARY }],
      ['/api/tts/list_voices', { ttsProvider: SpeechVoiceProvider.Neuphonic, neuphonicAPIKey: CANARY }],
    ];
    for (const [url, payload] of calls) {
      const res = await server.inject({ method: 'POST', url, payload, token: user.token });
      // 502: the Cartesia host is the redirecting one in this file.
      expect([200, 400, 502], `${url} ${res.body}`).toContain(res.statusCode);
      bodies.push(res.body);
    }
    // The keys did reach the stand-ins (so the search below is meaningful).
    expect(standIns.requests.some((r) => JSON.stringify(r).includes(CANARY))).toBe(true);
    expect(bodies.filter((b) => b.includes(CANARY))).toEqual([]);
    expect(server.logs.filter((l) => l.includes(CANARY))).toEqual([]);
    expect(server.logs.length).toBeGreaterThan(0);
  });
});
