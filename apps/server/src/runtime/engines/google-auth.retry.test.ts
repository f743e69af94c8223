// The Google token exchange is safe to repeat: against a local token endpoint it is tried again
// after failures, and a Dialogflow engine that closes (the conversation ended) stops waiting.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundClient } from '../../lib/outbound';
import type { DialogflowConfig, EngineDeps, ServiceAccount } from '../types';
import { DialogflowEngine } from './dialogflow';
import { GoogleTokenSource } from './google-auth';

const answers: number[] = [];
let calls = 0;
let tokenServer: Server;
let account: ServiceAccount;
let outbound: OutboundClient;

beforeAll(async () => {
  tokenServer = createServer((req, res) => {
    calls++;
    req.resume();
    const status = answers.shift() ?? 200;
    if (status !== 200) return res.writeHead(status, { 'retry-after': status === 503 ? '5' : '0' }).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `token-${calls}`, expires_in: 3600 }));
  });
  await new Promise<void>((r) => tokenServer.listen(0, '127.0.0.1', () => r()));
  const port = (tokenServer.address() as AddressInfo).port;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  account = {
    client_email: 'bot@proj.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    token_uri: `http://127.0.0.1:${port}/token`,
  };
  outbound = new OutboundClient({
    allow: [`127.0.0.1:${port}`],
    allowPrivate: false,
    retry: { attempts: 3, baseMs: 5, maxRetryAfterMs: 10_000 },
  });
});
afterAll(() => new Promise<void>((r) => tokenServer.close(() => r())));

describe('the Google token exchange', () => {
  it('is tried again after a 500 and a 429 and caches the token it finally gets', async () => {
    calls = 0;
    answers.push(500, 429);
    const source = new GoogleTokenSource(account, 'scope', outbound, () => new Date());
    expect(await source.get()).toBe('token-3');
    expect(await source.get()).toBe('token-3');
    expect(calls).toBe(3);
  });

  it('is not repeated after a 401 (a bad key)', async () => {
    calls = 0;
    answers.push(401);
    const source = new GoogleTokenSource(account, 'scope', outbound, () => new Date());
    await expect(source.get()).rejects.toThrow(/Google token/);
    expect(calls).toBe(1);
  });

  it('stops waiting to retry when the Dialogflow engine closes', async () => {
    calls = 0;
    answers.push(503, 503);
    const config: DialogflowConfig = { kind: 'dialogflow_es', projectId: 'p', serviceAccount: account, language: 'en' };
    const engine = new DialogflowEngine(config, { outbound, now: () => new Date() } as unknown as EngineDeps);
    const opening = engine.open({ sessionId: 's-1' } as Parameters<DialogflowEngine['open']>[0]).catch((e: unknown) => e);
    while (calls === 0) await new Promise((r) => setImmediate(r));
    await engine.close();
    expect(((await opening) as Error).message).toBe('conversation ended');
    expect(calls).toBe(1);
    answers.length = 0;
  });
});
