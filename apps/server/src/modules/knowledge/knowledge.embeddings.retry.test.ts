// Embedding requests are safe to repeat: against a local OpenAI-compatible stand-in that fails
// twice they succeed on the third attempt; one that keeps failing gives a clear error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness';
import { embed } from './knowledge.embeddings';

const failures: number[] = [];
let calls = 0;
let provider: Server;
let server: TestServer;

beforeAll(async () => {
  provider = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      calls++;
      const status = failures.shift();
      if (status) return res.writeHead(status).end('{"error":{"message":"overloaded"}}');
      const input = (JSON.parse(body) as { input: string[] }).input;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: [t.length, 1, 0] })) }));
    });
  });
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', () => r()));
  const port = (provider.address() as AddressInfo).port;
  server = await createTestServer({
    EMBEDDING_BASE_URL: `http://127.0.0.1:${port}/v1`,
    EMBEDDING_MODEL: 'stand-in-embed',
    OUTBOUND_ALLOW: `127.0.0.1:${port}`,
    RETRY_BASE_MS: '5',
  });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((r) => provider.close(() => r()));
});

describe('embedding requests', () => {
  it('are tried again after a 503 and a 429 and answer the vectors of the third attempt', async () => {
    calls = 0;
    failures.push(503, 429);
    expect(await embed(server.ctx, ['abc', 'hello'])).toEqual([
      [3, 1, 0],
      [5, 1, 0],
    ]);
    expect(calls).toBe(3);
  });

  it('give up after three attempts with an error naming the provider and its answer', async () => {
    calls = 0;
    failures.push(502, 502, 502);
    await expect(embed(server.ctx, ['abc'])).rejects.toThrow('Embedding provider failed after 3 attempts: HTTP 502');
    expect(calls).toBe(3);
  });

  it('are not repeated after a 400', async () => {
    calls = 0;
    failures.push(400);
    await expect(embed(server.ctx, ['abc'])).rejects.toThrow('embedding provider answered HTTP 400');
    expect(calls).toBe(1);
  });
});
