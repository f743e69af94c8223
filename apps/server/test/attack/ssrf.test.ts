// SSRF: the one vector set (test/ssrf-vectors.ts, with redirects to private addresses from an
// allowed loopback stand-in) against every entry point that fetches a URL a user gives.
// Each vector must be refused — answered 4xx, or, when the fetch runs later (URL items), the
// item fails with the refusal, or, for an avatar's brain, the conversation over the real socket
// fails to start or to answer with the guard's refusal in the server's log — and the canary
// listener must never see a connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { AvatarEngine, type SetupMode } from '@parla/shared/enums';
import type { BrainCatalogue } from '@parla/shared/provider-urls';
import { BRAIN_MESSAGES } from '@parla/shared/schemas/brain';
import { CUSTOM_LLM_MESSAGES, CUSTOM_LLM_PROVIDER } from '@parla/shared/schemas/custom-llm';
import type { BrainForm } from '@parla/shared/schemas/brain-forms';
import { defaultBrainForm, formsToAvatarFields, formsToPipeline } from '@parla/shared/schemas/brain-pipeline';
import type { CatalogueAvatar } from '@parla/shared/schemas/catalogue';
import { startCanary, type Canary } from '../canary';
import { closeAll, connect, listen } from '../conversation-client';
import { save } from '../avatar-requests';
import { REST_KEY, startRestStandIn, type RestStandIn } from '../stand-ins/runtime/rest-endpoint';
import { createCustomer, type TestAccount } from '../accounts';
import { createTestServer, type TestServer } from '../harness';
import { startRedirector, type Redirector } from '../redirector';
import { privateResolver, redirectTargets, ssrfVectors } from '../ssrf-vectors';
import { OutboundClient } from '../../src/lib/outbound';
import { kbToken } from '../knowledge-requests';
import { startKnowledgeWorker, type KnowledgeWorker } from '../../src/modules/knowledge/knowledge.worker';
import { kb } from './world';
import { browserCookie } from '../oauth-browser';

let server: TestServer;
let canary: Canary;
let redirector: Redirector;
let worker: KnowledgeWorker;
let account: TestAccount;
let jwt: string;
let collection: string;
let host: string;
let rest: RestStandIn;
/** The one avatar whose brain each conversation entry point sets, as the Brain tab saves it. */
let avatar: { id: string; updated: string; token: string; base: Record<string, unknown> };
let oauthAppId: number;
let catalogue: BrainCatalogue;
const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const REFUSAL =
  /private|reserved|refused|not allowed|only http|valid URL|host name|not a valid|unreachable|could not be reached|not found|ENOTFOUND/i;

beforeAll(async () => {
  canary = await startCanary();
  redirector = await startRedirector();
  // Two providers' base URLs point at the redirector, which sends every call on to the canary.
  const toCanary = redirector.baseTo(`http://127.0.0.1:${canary.port}/`);
  rest = await startRestStandIn();
  server = await createTestServer({
    OUTBOUND_ALLOW: `${redirector.allow},${rest.allow}`,
    CRAWL_RATE_LIMIT_PER_MINUTE: '100000',
    PROVIDER_URL_OVERRIDES: `api.deepgram.com=${toCanary},api.openai.com=${toCanary}`,
  });
  await server.ctx.outbound.close();
  server.ctx.outbound = new OutboundClient({ allow: [redirector.allow, rest.allow], allowPrivate: false, resolve: privateResolver });
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  account = await createCustomer(server, 'ssrf');
  jwt = await kbToken(server, account);
  collection = (await kb(server, jwt, 'POST', '/kb/v1/collections', { name: 'SSRF' })).json().id as string;
  host = await listen(server);
  catalogue = (await server.inject({ method: 'GET', url: '/api/brain/catalogue', token: account.token })).json() as BrainCatalogue;
  const look = ((await server.inject({ method: 'GET', url: '/api/catalogue/avatars' })).json().avatars as CatalogueAvatar[]).find(
    (a) => a.type === '2d',
  )!;
  const base = { name: 'SSRF avatar', dhType: look.type, appearanceId: look.id };
  const made = await save(server, account.token, base);
  expect(made.statusCode, made.body).toBe(200);
  avatar = { ...(made.json().agent as { id: string; updated: string; token: string }), base };
  const app = await server.inject({
    method: 'POST',
    url: '/api/add_oauthapp',
    token: account.token,
    payload: oauthApp('https://accounts.example.com/auth', 'https://accounts.example.com/token'),
  });
  expect(app.statusCode, app.body).toBe(200);
  oauthAppId = app.json().appId as number;
});
afterAll(async () => {
  await closeAll();
  await rest.close();
  await worker.stop();
  await server.close();
  await canary.close();
  await redirector.close();
});

interface Outcome {
  refused: boolean;
  detail: string;
}

const oauthApp = (oauthURL: string, tokenIssueURL: string) => ({
  appName: 'SSRF partner',
  partner: 'SmartPension',
  clientId: 'client-of-mine',
  clientSecret: 'a-client-secret-of-mine',
  oauthURL,
  tokenIssueURL,
});

/** Saves the avatar's brain (the Brain tab's save), keeping the avatar's version current. */
async function setBrain(extra: Record<string, unknown>): Promise<{ saved: boolean; detail: string }> {
  const res = await save(server, account.token, { ...avatar.base, id: avatar.id, updated: avatar.updated, ...extra });
  if (res.statusCode !== 200) return { saved: false, detail: `save ${res.statusCode} ${res.body.slice(0, 400)}` };
  avatar.updated = (res.json().agent as { updated: string }).updated;
  return { saved: true, detail: '' };
}

/** The server's log lines written while `run` ran. */
async function logged<T>(run: () => Promise<T>): Promise<{ value: T; lines: string }> {
  const from = server.logs.length;
  const value = await run();
  // The turn's failure is logged just before the notice goes out; give the log stream a tick.
  await new Promise((r) => setTimeout(r, 5));
  return { value, lines: server.logs.slice(from).join('') };
}

/** Opens a conversation with the avatar and says one thing: refused when it cannot start, or
 *  when its turn fails (the notice), with the outbound guard's refusal in the log. An answer
 *  (any assistant text) is not a refusal. */
async function converse(): Promise<Outcome> {
  const { value, lines } = await logged(async () => {
    const c = await connect(host, { avatarId: avatar.id, token: avatar.token });
    const first = await Promise.race([c.next('ready').then(() => 'ready' as const), c.next('error').then((e) => e)]).catch(
      (err: unknown) => ({ type: 'error' as const, message: String(err) }),
    );
    if (first !== 'ready') {
      await c.closed;
      return { started: false, text: '', message: 'message' in first ? first.message : '' };
    }
    // The avatar's greeting (its brain's answer to the wake-up message) comes first.
    await c.next('assistant_done', undefined, 20_000);
    c.send({ type: 'user_text', text: 'hello' });
    const done = await c.next('assistant_done', undefined, 20_000);
    const notice = c.messages.some((m) => m.type === 'notice' && m.reason === 'engine_unavailable');
    c.ws.close();
    await c.closed;
    return { started: true, text: done.text, message: notice ? 'engine_unavailable' : '' };
  });
  const refusedInLog = REFUSAL.test(lines) || /Outbound request refused|request failed|redirect/i.test(lines);
  const failed = !value.started || (value.message === 'engine_unavailable' && value.text === '');
  return {
    refused: failed && refusedInLog,
    detail: `${value.started ? 'started' : 'not started'}; "${value.text.slice(0, 80)}" ${value.message}; log: ${lines.slice(-300)}`,
  };
}

/** A brain entry point: save the vector into the avatar's brain, then converse. */
function brain(extra: (url: string) => Record<string, unknown>): (url: string) => Promise<Outcome> {
  return async (url) => {
    const saved = await setBrain(extra(url));
    // The save refusing the URL itself is a refusal (not a URL, or not one of the provider base
    // URLs the Brain tab offers); any other save error is the test's own fault.
    const urlRefusals = [
      BRAIN_MESSAGES.notValidUrl,
      BRAIN_MESSAGES.baseUrlUnknown,
      CUSTOM_LLM_MESSAGES.baseUrlInvalid,
      CUSTOM_LLM_MESSAGES.httpsRequired,
      CUSTOM_LLM_MESSAGES.refused,
    ];
    if (!saved.saved) return { refused: urlRefusals.some((m) => saved.detail.includes(m)), detail: saved.detail };
    return converse();
  };
}

/** The avatar's fields for a brain, built by the Brain tab's own form helpers. */
function form(engine: number, patch: (f: BrainForm) => void, mode: SetupMode = 'Simple'): Record<string, unknown> {
  const f = defaultBrainForm(catalogue);
  f.setupMode = mode;
  f.nlpEngine = engine;
  patch(f);
  return {
    ...formsToAvatarFields(f),
    setupMode: f.setupMode,
    nlpEngine: f.nlpEngine,
    oauthEnabled: 0,
    customData: { agent_pipeline_config: formsToPipeline(f, {}, catalogue) },
  };
}

/** A Google service account's JSON key whose token_uri is `url`. */
const serviceAccount = (url: string) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'ssrf-project',
    client_email: 'bot@ssrf-project.iam.gserviceaccount.com',
    private_key: privateKey,
    token_uri: url,
  });

/** Every entry point that fetches a user's URL: how to hand it one, and whether it refused. */
const ENTRY_POINTS: Record<string, (url: string) => Promise<Outcome>> = {
  'knowledge URL item (POST /kb/v1/collections/{id}/items)': async (url) => {
    const res = await kb(server, jwt, 'POST', `/kb/v1/collections/${collection}/items`, { name: 'v', knowledge_type: { url: { url } } });
    if (res.statusCode >= 400 && res.statusCode < 500) return { refused: true, detail: `${res.statusCode}` };
    if (res.statusCode !== 200) return { refused: false, detail: `${res.statusCode} ${res.body}` };
    await worker.drain();
    const items = (await kb(server, jwt, 'GET', `/kb/v1/collections/${collection}/items`)).json() as {
      id: string;
      status: string;
      fail_reason: string | null;
    }[];
    const item = items.find((i) => i.id === res.json().id)!;
    return { refused: item.status === 'failed' && REFUSAL.test(item.fail_reason ?? ''), detail: `${item.status}: ${item.fail_reason}` };
  },
  'knowledge URL items in a batch (POST /kb/v1/collections/{id}/items/batch)': async (url) => {
    const res = await kb(server, jwt, 'POST', `/kb/v1/collections/${collection}/items/batch`, {
      items: [{ name: 'v', knowledge_type: { url: { url } } }],
    });
    if (res.statusCode >= 400 && res.statusCode < 500) return { refused: true, detail: `${res.statusCode}` };
    const [first] = res.json() as { status: string; item?: { id: string }; error?: unknown }[];
    if (first!.status === 'error') return { refused: true, detail: JSON.stringify(first!.error) };
    await worker.drain();
    const items = (await kb(server, jwt, 'GET', `/kb/v1/collections/${collection}/items`)).json() as {
      id: string;
      status: string;
      fail_reason: string | null;
    }[];
    const item = items.find((i) => i.id === first!.item!.id)!;
    return { refused: item.status === 'failed' && REFUSAL.test(item.fail_reason ?? ''), detail: `${item.status}: ${item.fail_reason}` };
  },
  'knowledge crawl (POST /kb/v1/crawl)': async (url) => {
    const res = await kb(server, jwt, 'POST', '/kb/v1/crawl', { url, limit: 3 });
    return { refused: res.statusCode >= 400 && res.statusCode < 500, detail: `${res.statusCode} ${res.body.slice(0, 120)}` };
  },
  'Brain proxy (POST /api/proxy)': async (url) => {
    const res = await server.inject({
      method: 'POST',
      url: '/api/proxy',
      token: account.token,
      payload: { url, headers: { Authorization: 'Token a-key-of-mine' } },
    });
    return { refused: res.statusCode >= 400 && res.statusCode < 500, detail: `${res.statusCode} ${res.body.slice(0, 120)}` };
  },
  'LLM base URL (POST /api/llm/models)': async (url) => {
    const res = await server.inject({
      method: 'POST',
      url: '/api/llm/models',
      token: account.token,
      payload: { baseUrl: url, apiKey: 'sk-a-key-of-mine' },
    });
    return { refused: res.statusCode >= 400 && res.statusCode < 500, detail: `${res.statusCode} ${res.body.slice(0, 120)}` };
  },
  'LLM base URL (POST /api/llm/assistants)': async (url) => {
    const res = await server.inject({
      method: 'POST',
      url: '/api/llm/assistants',
      token: account.token,
      payload: { baseUrl: url, apiKey: 'sk-a-key-of-mine' },
    });
    return { refused: res.statusCode >= 400 && res.statusCode < 500, detail: `${res.statusCode} ${res.body.slice(0, 120)}` };
  },
  // ---- the brain of a saved avatar, in a real conversation (WS /ws/conversation)
  'REST endpoint URL (LOGIN at the start of a conversation)': brain((url) =>
    form(AvatarEngine.RestEndpoint, (f) => (f.restEndpoint = { ...f.restEndpoint, base_url: url, api_key: 'a-rest-key-of-mine-0123' })),
  ),
  'custom LLM base URL of the brain (the first turn of a conversation)': brain((url) =>
    form(
      AvatarEngine.LargeLanguageModel,
      (f) =>
        (f.llmDetails = {
          ...f.llmDetails,
          url,
          llmProvider: CUSTOM_LLM_PROVIDER,
          llmAPIKey: 'sk-a-key-of-mine-0123',
          llmModel: 'my-model',
        }),
      'Composite',
    ),
  ),
  'realtime provider URL (the provider socket at the start)': brain((url) =>
    form(
      AvatarEngine.ParlaRealtime,
      (f) =>
        (f.realtimeDetails = {
          ...f.realtimeDetails,
          url,
          api_key: 'sk-a-realtime-key-of-mine',
          model: catalogue.realtimeProviders[0]!.models[0]!,
          voice_id: catalogue.realtimeProviders[0]!.voices[0]!,
        }),
      'SpeechToSpeech',
    ),
  ),
  "Dialogflow JSON key's token_uri (the first turn)": brain((url) =>
    form(
      AvatarEngine.DialogflowES,
      (f) =>
        (f.dialogFlowES = { ...f.dialogFlowES, project_id: 'ssrf-project', api_key: serviceAccount(url), api_key_file_name: 'key.json' }),
      'Composite',
    ),
  ),
  // ---- billing authorisation: refused when saved, or its first call (when the conversation opens) refused by the guard
  'billing authorisation URL (billingAuthURL, called when a conversation opens)': async (url) => {
    const saved = await setBrain({
      nlpEngine: AvatarEngine.EchoTest,
      oauthEnabled: 0,
      billingAuthURL: url,
      billingAuthHeader: 'Bearer a-billing-key-0123',
    });
    if (!saved.saved) return { refused: /Billing Authorization URL|Not a valid URL/.test(saved.detail), detail: saved.detail };
    const from = server.logs.length;
    const line = () => server.logs.slice(from).find((l) => l.includes('"billing authorisation"')) ?? '';
    const c = await connect(host, { avatarId: avatar.id, token: avatar.token });
    await c.next('ready');
    await expect.poll(line, { timeout: 20_000 }).not.toBe('');
    c.ws.close();
    await c.closed;
    await setBrain({ billingAuthURL: '' });
    return {
      refused: /billing authorisation failed \(Outbound request refused|billing authorisation failed \(.*(redirect|private|refused)/i.test(
        line(),
      ),
      detail: `started; log: ${line().slice(0, 300)}`,
    };
  },
  // ---- the end user's OAuth sign-in: oauthURL is only where the browser is sent; tokenIssueURL is fetched by the server
  'OAuth config (oauthURL, tokenIssueURL) through /api/oauth/start and /api/oauth/callback': async (url) => {
    const app = await server.inject({
      method: 'POST',
      url: '/api/add_oauthapp',
      token: account.token,
      payload: { ...oauthApp(url, url), appId: oauthAppId },
    });
    if (app.statusCode >= 400 && app.statusCode < 500) return { refused: true, detail: `save ${app.statusCode}` };
    if (app.statusCode !== 200) return { refused: false, detail: `save ${app.statusCode} ${app.body.slice(0, 120)}` };
    const linked = await setBrain({ nlpEngine: AvatarEngine.EchoTest, oauthEnabled: 1, partnerOauthAppId: String(oauthAppId) });
    if (!linked.saved) return { refused: false, detail: linked.detail };
    const start = await server.inject({ method: 'GET', url: `/api/oauth/start/${avatar.id}` });
    if (start.statusCode !== 302)
      return {
        refused: start.statusCode >= 400 && start.statusCode < 500,
        detail: `start ${start.statusCode} ${start.body.slice(0, 120)}`,
      };
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const { value: back, lines } = await logged(() =>
      server.inject({
        method: 'GET',
        url: `/api/oauth/callback/${oauthAppId}?code=a-code&state=${encodeURIComponent(state)}`,
        headers: { cookie: browserCookie(start) },
      }),
    );
    const refused = back.statusCode >= 400 && back.statusCode < 500 && (REFUSAL.test(lines) || /request failed|redirect/i.test(lines));
    return { refused, detail: `callback ${back.statusCode} ${back.body.slice(0, 120)}; log: ${lines.slice(-200)}` };
  },
};

describe('SSRF', () => {
  it('uses a vector set of at least 40 URLs with redirects to private addresses', () => {
    expect(ssrfVectors(canary.port, redirector.url).length).toBeGreaterThanOrEqual(60);
  });

  it('is refused by every entry point that fetches, for every vector, without a connection to the canary', async () => {
    const vectors = ssrfVectors(canary.port, redirector.url);
    const notRefused: string[] = [];
    let tried = 0;
    const where: string[] = [];
    for (const [entry, send] of Object.entries(ENTRY_POINTS)) {
      let atSave = 0;
      for (const url of vectors) {
        const outcome = await send(url);
        tried++;
        if (outcome.detail.startsWith('save')) atSave++;
        if (!outcome.refused) notRefused.push(`${entry} ← ${url}: ${outcome.detail}`);
      }
      if (atSave) where.push(`${entry}: ${atSave} refused when saved, ${vectors.length - atSave} when fetched`);
    }
    // A control: the same path to an allowed page is fetched (the refusals are the guard's).
    const control = await ENTRY_POINTS['knowledge URL item (POST /kb/v1/collections/{id}/items)']!(
      `${redirector.url}/redirect?status=302&to=${encodeURIComponent(`${redirector.url}/links`)}`,
    );
    expect(control, 'an allowed redirect must be followed').toMatchObject({ refused: false, detail: 'ready: null' });
    // A control for the conversations: the same avatar with an allowed REST endpoint answers.
    expect(
      await setBrain(
        form(AvatarEngine.RestEndpoint, (f) => (f.restEndpoint = { ...f.restEndpoint, base_url: `${rest.url}/chat`, api_key: REST_KEY })),
      ),
    ).toEqual({ saved: true, detail: '' });
    const answered = await converse();
    expect(answered.refused, answered.detail).toBe(false);
    expect(answered.detail).toContain('REST says: hello');
    // The REST endpoint answers LOGIN and redirects CHAT to a private address: CHAT is refused too.
    const restEntry = ENTRY_POINTS['REST endpoint URL (LOGIN at the start of a conversation)']!;
    const chat = redirectTargets(canary.port).map((t) => `${redirector.url}/login-then?to=${encodeURIComponent(t)}`);
    for (const url of chat) {
      const outcome = await restEntry(url);
      tried++;
      if (!outcome.refused || !outcome.detail.startsWith('started')) notRefused.push(`REST endpoint CHAT ← ${url}: ${outcome.detail}`);
    }
    // A custom LLM base URL takes no query: base URLs whose every path redirects to a private address.
    const llmEntry = ENTRY_POINTS['custom LLM base URL of the brain (the first turn of a conversation)']!;
    const bases = redirectTargets(canary.port).map((t) => redirector.baseTo(t));
    for (const url of bases) {
      const outcome = await llmEntry(url);
      tried++;
      if (!outcome.refused || !outcome.detail.startsWith('started'))
        notRefused.push(`custom LLM base URL redirecting ← ${url}: ${outcome.detail}`);
    }
    console.log(
      `SSRF: ${Object.keys(ENTRY_POINTS).length} entry points × ${vectors.length} vectors + ${chat.length} REST CHAT redirects + ${bases.length} custom LLM base URLs redirecting = ${tried} tries, ${tried - notRefused.length} refused, canary connections ${canary.connections()}`,
    );
    console.log(`SSRF: where the configuration entry points refused:\n  ${where.join('\n  ')}`);
    expect(notRefused).toEqual([]);
    expect(canary.connections()).toBe(0);
  }, 300_000);

  it('does not follow a provider that redirects to a private address (proxy, LLM models)', async () => {
    const c = (await server.inject({ method: 'GET', url: '/api/brain/catalogue', token: account.token })).json() as {
      endpoints: { deepgram: string };
      llmProviders: { id: string; baseUrl: string }[];
    };
    const openai = c.llmProviders.find((p) => p.id === 'openai')!;
    const calls = [
      await server.inject({
        method: 'POST',
        url: '/api/proxy',
        token: account.token,
        payload: { url: `${c.endpoints.deepgram}/models`, headers: { Authorization: 'Token a-key-of-mine' } },
      }),
      await server.inject({
        method: 'POST',
        url: '/api/llm/models',
        token: account.token,
        payload: { baseUrl: openai.baseUrl, apiKey: 'sk-a-key-of-mine' },
      }),
    ];
    const before = redirector.requests();
    expect(before).toBeGreaterThan(0);
    for (const res of calls)
      expect(
        res.statusCode === 502 ||
          (res.statusCode >= 400 && res.statusCode < 500) ||
          (res.statusCode === 200 && res.json().httpStatus >= 300),
        res.body,
      ).toBe(true);
    expect(canary.connections()).toBe(0);
  });

  it('does not follow a crawled page’s links to private addresses', async () => {
    const page = `${redirector.url}/links?${redirectTargets(canary.port)
      .map((t) => `to=${encodeURIComponent(t)}`)
      .join('&')}`;
    const res = await kb(server, jwt, 'POST', '/kb/v1/crawl', { url: page, limit: 20 });
    expect(res.statusCode, res.body).toBe(200);
    const found = (res.json() as { url: string }[]).map((p) => p.url);
    expect(found.every((u) => u.startsWith(redirector.url))).toBe(true);
    expect(canary.connections()).toBe(0);
  });
});
