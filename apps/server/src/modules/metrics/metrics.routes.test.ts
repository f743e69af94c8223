// GET /metrics: off without METRICS_TOKEN, 401 without that bearer token, and the operators'
// figures in the Prometheus text format.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars } from '../../../test/conversation-client';
import { createTestServer, type TestServer } from '../../../test/harness';
import type { LlmConfig } from '../../runtime/types';

const TOKEN = 'metrics-token-0123456789';
/** A model nobody answers for: the outbound guard refuses the private address (a provider failure). */
const BROKEN_LLM: LlmConfig = {
  kind: 'llm',
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKey: 'sk-test-key-0000',
  model: 'm',
  instructions: '',
  memory: '',
  sendHistory: false,
  tools: [],
};
let server: TestServer;
let off: TestServer;

beforeAll(async () => {
  server = await createTestServer({ METRICS_TOKEN: TOKEN });
  off = await createTestServer();
  const owner = await createCustomer(server, 'metrics');
  testAvatars(server, { echo: { ownerId: owner.id }, broken: { ownerId: owner.id, engine: BROKEN_LLM } });
});

afterAll(async () => {
  await closeAll();
  await server.close();
  await off.close();
});

const scrape = (s: TestServer, authorization?: string) =>
  s.inject({ method: 'GET', url: '/metrics', appKey: null, ...(authorization ? { headers: { authorization } } : {}) });

describe('GET /metrics', () => {
  it('is not found when no metrics token is configured', async () => {
    expect((await scrape(off)).statusCode).toBe(404);
    expect((await scrape(off, `Bearer ${TOKEN}`)).statusCode).toBe(404);
  });

  it('answers 401 without the configured bearer token', async () => {
    for (const auth of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`])
      expect((await scrape(server, auth)).statusCode).toBe(401);
  });

  it('shows open conversations, turns, the first-delta histogram, the ingestion queue and failures per provider', async () => {
    const host = await listen(server);
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    await c.ask('hello');
    const res = await scrape(server, `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toMatch(/^parla_open_conversations 1$/m);
    expect(text).toMatch(/^parla_turns_total 1$/m);
    expect(text).toMatch(/^parla_first_delta_seconds_count 1$/m);
    expect(text).toMatch(/^parla_first_delta_seconds_bucket\{le="\+Inf"\} 1$/m);
    expect(text).toMatch(/^parla_ingestion_queue_depth 0$/m);
    expect(text).toContain('# TYPE parla_outbound_failures_total counter');
    const broken = await connect(host, { avatarId: 'broken' }, { type: 'hello', deviceId: 'device-2', userName: 'Bo' });
    await broken.next('ready');
    broken.send({ type: 'user_text', text: 'hello' });
    await broken.next('notice');
    await broken.next('assistant_done');
    expect((await scrape(server, `Bearer ${TOKEN}`)).body).toMatch(/^parla_outbound_failures_total\{provider="llm"\} 1$/m);
    expect(text).toMatch(/^parla_process_cpu_user_seconds_total /m);
  });
});
