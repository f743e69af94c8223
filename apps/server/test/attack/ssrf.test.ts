// SSRF: the one vector set (test/ssrf-vectors.ts, with redirects to private addresses from an
// allowed loopback stand-in) against every entry point that fetches a URL a user gives.
// Each vector must be refused — answered 4xx, or, when the fetch runs later (URL items), the
// item fails with the refusal — and the canary listener must never see a connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type Canary } from '../canary';
import { createCustomer, type TestAccount } from '../accounts';
import { createTestServer, type TestServer } from '../harness';
import { startRedirector, type Redirector } from '../redirector';
import { privateResolver, redirectTargets, ssrfVectors } from '../ssrf-vectors';
import { OutboundClient } from '../../src/lib/outbound';
import { kbToken } from '../../src/modules/knowledge/knowledge.test-helpers';
import { startKnowledgeWorker, type KnowledgeWorker } from '../../src/modules/knowledge/knowledge.worker';
import { kb } from './world';

let server: TestServer;
let canary: Canary;
let redirector: Redirector;
let worker: KnowledgeWorker;
let account: TestAccount;
let jwt: string;
let collection: string;

const REFUSAL = /private|reserved|refused|not allowed|only http|valid URL|host name|not a valid|unreachable|could not be reached|not found|ENOTFOUND/i;

beforeAll(async () => {
  canary = await startCanary();
  redirector = await startRedirector();
  // Two providers' base URLs point at the redirector, which sends every call on to the canary.
  const toCanary = redirector.baseTo(`http://127.0.0.1:${canary.port}/`);
  server = await createTestServer({
    OUTBOUND_ALLOW: redirector.allow,
    CRAWL_RATE_LIMIT_PER_MINUTE: '100000',
    PROVIDER_URL_OVERRIDES: `api.deepgram.com=${toCanary},api.openai.com=${toCanary}`,
  });
  await server.ctx.outbound.close();
  server.ctx.outbound = new OutboundClient({ allow: [redirector.allow], allowPrivate: false, resolve: privateResolver });
  worker = startKnowledgeWorker(server.ctx, { pollMs: 60_000 });
  account = await createCustomer(server, 'ssrf');
  jwt = await kbToken(server, account);
  collection = (await kb(server, jwt, 'POST', '/kb/v1/collections', { name: 'SSRF' })).json().id as string;
});
afterAll(async () => {
  await worker.stop();
  await server.close();
  await canary.close();
  await redirector.close();
});

interface Outcome {
  refused: boolean;
  detail: string;
}

/** Every entry point that fetches a user's URL: how to hand it one, and whether it refused. */
const ENTRY_POINTS: Record<string, (url: string) => Promise<Outcome>> = {
  'knowledge URL item (POST /kb/v1/collections/{id}/items)': async (url) => {
    const res = await kb(server, jwt, 'POST', `/kb/v1/collections/${collection}/items`, { name: 'v', knowledge_type: { url: { url } } });
    if (res.statusCode >= 400 && res.statusCode < 500) return { refused: true, detail: `${res.statusCode}` };
    if (res.statusCode !== 200) return { refused: false, detail: `${res.statusCode} ${res.body}` };
    await worker.drain();
    const items = (await kb(server, jwt, 'GET', `/kb/v1/collections/${collection}/items`)).json() as { id: string; status: string; fail_reason: string | null }[];
    const item = items.find((i) => i.id === res.json().id)!;
    return { refused: item.status === 'failed' && REFUSAL.test(item.fail_reason ?? ''), detail: `${item.status}: ${item.fail_reason}` };
  },
  'knowledge URL items in a batch (POST /kb/v1/collections/{id}/items/batch)': async (url) => {
    const res = await kb(server, jwt, 'POST', `/kb/v1/collections/${collection}/items/batch`, { items: [{ name: 'v', knowledge_type: { url: { url } } }] });
    if (res.statusCode >= 400 && res.statusCode < 500) return { refused: true, detail: `${res.statusCode}` };
    const [first] = res.json() as { status: string; item?: { id: string }; error?: unknown }[];
    if (first!.status === 'error') return { refused: true, detail: JSON.stringify(first!.error) };
    await worker.drain();
    const items = (await kb(server, jwt, 'GET', `/kb/v1/collections/${collection}/items`)).json() as { id: string; status: string; fail_reason: string | null }[];
    const item = items.find((i) => i.id === first!.item!.id)!;
    return { refused: item.status === 'failed' && REFUSAL.test(item.fail_reason ?? ''), detail: `${item.status}: ${item.fail_reason}` };
  },
  'knowledge crawl (POST /kb/v1/crawl)': async (url) => {
    const res = await kb(server, jwt, 'POST', '/kb/v1/crawl', { url, limit: 3 });
    return { refused: res.statusCode >= 400 && res.statusCode < 500, detail: `${res.statusCode} ${res.body.slice(0, 120)}` };
  },
  'Brain proxy (POST /api/proxy)': async (url) => {
    const res = await server.inject({ method: 'POST', url: '/api/proxy', token: account.token, payload: { url, headers: { Authorization: 'Token a-key-of-mine' } } });
    return { refused: res.statusCode >= 400 && res.statusCode < 500, detail: `${res.statusCode} ${res.body.slice(0, 120)}` };
  },
  'LLM base URL (POST /api/llm/models)': async (url) => {
    const res = await server.inject({ method: 'POST', url: '/api/llm/models', token: account.token, payload: { baseUrl: url, apiKey: 'sk-a-key-of-mine' } });
    return { refused: res.statusCode >= 400 && res.statusCode < 500, detail: `${res.statusCode} ${res.body.slice(0, 120)}` };
  },
  'LLM base URL (POST /api/llm/assistants)': async (url) => {
    const res = await server.inject({ method: 'POST', url: '/api/llm/assistants', token: account.token, payload: { baseUrl: url, apiKey: 'sk-a-key-of-mine' } });
    return { refused: res.statusCode >= 400 && res.statusCode < 500, detail: `${res.statusCode} ${res.body.slice(0, 120)}` };
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
    for (const [entry, send] of Object.entries(ENTRY_POINTS)) {
      for (const url of vectors) {
        const outcome = await send(url);
        tried++;
        if (!outcome.refused) notRefused.push(`${entry} ← ${url}: ${outcome.detail}`);
      }
    }
    // A control: the same path to an allowed page is fetched (the refusals are the guard's).
    const control = await ENTRY_POINTS['knowledge URL item (POST /kb/v1/collections/{id}/items)']!(`${redirector.url}/redirect?status=302&to=${encodeURIComponent(`${redirector.url}/links`)}`);
    expect(control, 'an allowed redirect must be followed').toMatchObject({ refused: false, detail: 'ready: null' });
    console.log(`SSRF: ${Object.keys(ENTRY_POINTS).length} entry points × ${vectors.length} vectors = ${tried} tries, ${tried - notRefused.length} refused, canary connections ${canary.connections()}`);
    expect(notRefused).toEqual([]);
    expect(canary.connections()).toBe(0);
  }, 120_000);

  it('does not follow a provider that redirects to a private address (proxy, LLM models)', async () => {
    const c = (await server.inject({ method: 'GET', url: '/api/brain/catalogue', token: account.token })).json() as { endpoints: { deepgram: string }; llmProviders: { id: string; baseUrl: string }[] };
    const openai = c.llmProviders.find((p) => p.id === 'openai')!;
    const calls = [
      await server.inject({ method: 'POST', url: '/api/proxy', token: account.token, payload: { url: `${c.endpoints.deepgram}/models`, headers: { Authorization: 'Token a-key-of-mine' } } }),
      await server.inject({ method: 'POST', url: '/api/llm/models', token: account.token, payload: { baseUrl: openai.baseUrl, apiKey: 'sk-a-key-of-mine' } }),
    ];
    const before = redirector.requests();
    expect(before).toBeGreaterThan(0);
    for (const res of calls) expect(res.statusCode === 502 || (res.statusCode >= 400 && res.statusCode < 500) || (res.statusCode === 200 && res.json().httpStatus >= 300), res.body).toBe(true);
    expect(canary.connections()).toBe(0);
  });

  it('does not follow a crawled page’s links to private addresses', async () => {
    const page = `${redirector.url}/links?${redirectTargets(canary.port).map((t) => `to=${encodeURIComponent(t)}`).join('&')}`;
    const res = await kb(server, jwt, 'POST', '/kb/v1/crawl', { url: page, limit: 20 });
    expect(res.statusCode, res.body).toBe(200);
    const found = (res.json() as { url: string }[]).map((p) => p.url);
    expect(found.every((u) => u.startsWith(redirector.url))).toBe(true);
    expect(canary.connections()).toBe(0);
  });
});
