// fetchIdempotent against a local stand-in whose answers are scripted per path: retried on
// 429/5xx and failed connections, not on other 4xx, honours Retry-After, gives up with a clear
// error, stops when aborted, and never retries a refusal of the guard.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundClient, OutboundRefused } from './outbound';
import { RetriesExhausted } from './retry';

type Answer = { status: number; headers?: Record<string, string>; body?: string };
const scripts = new Map<string, Answer[]>();
const seen = new Map<string, number[]>();
let standIn: Server;
let base: string;
let port: number;

beforeAll(async () => {
  standIn = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.set(path, [...(seen.get(path) ?? []), Date.now()]);
    const script = scripts.get(path) ?? [];
    const answer = script.length > 1 ? script.shift()! : (script[0] ?? { status: 200 });
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '{"ok":true}');
  });
  await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', () => r()));
  port = (standIn.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((r) => standIn.close(() => r())));

const client = (attempts = 3) =>
  new OutboundClient({
    allow: [`127.0.0.1:${port}`, '127.0.0.1:9'],
    allowPrivate: false,
    retry: { attempts, baseMs: 5, maxRetryAfterMs: 5_000 },
  });
const count = (path: string) => seen.get(path)?.length ?? 0;

describe('requests safe to repeat', () => {
  it('are tried again after two failures (503, then a 502) and return the third answer', async () => {
    scripts.set('/flaky', [{ status: 503 }, { status: 502 }, { status: 200, body: '{"third":true}' }]);
    const res = await client().fetchIdempotent('Stand-in', `${base}/flaky`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ third: true });
    expect(count('/flaky')).toBe(3);
  });

  it('give up after the last attempt with an error that names the provider, the attempts and the answer', async () => {
    scripts.set('/down', [{ status: 503 }]);
    const err = await client()
      .fetchIdempotent('Stand-in', `${base}/down`)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhausted);
    expect((err as Error).message).toBe('Stand-in failed after 3 attempts: HTTP 503');
    expect(count('/down')).toBe(3);
  });

  it('are not repeated after a 4xx other than 429: the answer is returned as it is', async () => {
    scripts.set('/bad', [{ status: 400, body: '{"error":"bad input"}' }]);
    const res = await client().fetchIdempotent('Stand-in', `${base}/bad`);
    expect(res.status).toBe(400);
    expect(count('/bad')).toBe(1);
  });

  it("wait for a 429 answer's Retry-After before the next attempt", async () => {
    scripts.set('/busy', [{ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }]);
    const res = await client().fetchIdempotent('Stand-in', `${base}/busy`);
    expect(res.status).toBe(200);
    const [first, second] = seen.get('/busy')!;
    // A lower bound (the provider's own instruction), not a speed assertion.
    expect(second! - first!).toBeGreaterThanOrEqual(1000);
  });

  it('give up at once when Retry-After asks for longer than the longest wait', async () => {
    scripts.set('/later', [{ status: 429, headers: { 'retry-after': '3600' } }, { status: 200 }]);
    const err = await client()
      .fetchIdempotent('Stand-in', `${base}/later`)
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('Stand-in failed after 1 attempt: HTTP 429');
    expect(count('/later')).toBe(1);
  });

  it('are tried again when the connection fails, and give up clearly', async () => {
    const err = await client(2)
      .fetchIdempotent('Stand-in', 'http://127.0.0.1:9/closed', { timeoutMs: 2000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhausted);
    expect((err as Error).message).toMatch(/^Stand-in failed after 2 attempts: request (failed|timed out)/);
  });

  it('stop when aborted while waiting (the conversation ended)', async () => {
    scripts.set('/slow-retry', [{ status: 503, headers: { 'retry-after': '4' } }, { status: 200 }]);
    const abort = new AbortController();
    const pending = client()
      .fetchIdempotent('Stand-in', `${base}/slow-retry`, { abort: abort.signal })
      .catch((e: unknown) => e);
    while (count('/slow-retry') === 0) await new Promise((r) => setImmediate(r));
    abort.abort(new Error('conversation ended'));
    expect(((await pending) as Error).message).toBe('conversation ended');
    expect(count('/slow-retry')).toBe(1);
  });

  it('never repeat a request the outbound guard refused', async () => {
    const err = await client()
      .fetchIdempotent('Stand-in', 'http://169.254.169.254/latest')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundRefused);
  });
});
