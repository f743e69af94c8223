// Open connections per client address (issue 33, item 8): one address could hold any number of
// connections open (keep-alive HTTP, WebSockets), each a file descriptor and socket buffers of
// the server. A real listening server with a small cap (MAX_CONNECTIONS_PER_ADDRESS) and real
// TCP sockets: the connections within the cap are served and stay open; one more from the same
// address is answered 429 with the error body and closed, a WebSocket upgrade beyond it is
// refused the same way; another address is not affected, and a closed connection frees its place.
// See docs/decisions/412-sandbox-caps-intrinsics-and-connection-caps.md.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestServer, type TestServer } from '../harness';
import { TOO_MANY_CONNECTIONS_MESSAGE } from '../../src/plugins/connection-cap';

const CAP = 3;
let server: TestServer;
let port: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await createTestServer({ MAX_CONNECTIONS_PER_ADDRESS: String(CAP) });
  port = Number(new URL(await server.listen()).port);
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await server.close();
});

/** A raw HTTP/1.1 connection from `from`: sends one keep-alive GET, resolves with the answer's
 *  head and body once the whole answer has arrived; `closed` settles when the server closes it. */
async function request(from = '127.0.0.1'): Promise<{ socket: Socket; status: number; head: string; body: string; closed: Promise<void> }> {
  const socket = connect({ host: '127.0.0.1', port, localAddress: from });
  sockets.push(socket);
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(`GET /api/health HTTP/1.1\r\nhost: parla.test\r\nconnection: keep-alive\r\n\r\n`);
  let text = '';
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      if (end >= 0 && length && text.length >= end + 4 + Number(length)) resolve();
    });
    socket.once('error', reject);
    socket.once('close', () => resolve());
  });
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { socket, status: Number(head.split(' ')[1]), head: head.toLowerCase(), body, closed };
}

describe('open connections per client address', () => {
  it('serves the connections within the cap and answers one more from the same address 429, then closes it', async () => {
    const held = [];
    for (let i = 0; i < CAP; i++) held.push(await request());
    for (const c of held) {
      expect(c.status).toBe(200);
      expect(c.socket.destroyed).toBe(false);
    }
    const over = await request();
    expect(over.status).toBe(429);
    expect(over.head).toContain('connection: close');
    expect(JSON.parse(over.body)).toMatchObject({ status: 'ERROR', errors: [TOO_MANY_CONNECTIONS_MESSAGE] });
    await over.closed;

    // A WebSocket upgrade beyond the cap is refused the same way, before any route runs.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/conversation`);
    const refused = await new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => resolve(101));
      ws.once('error', () => resolve(-1));
    });
    ws.terminate();
    expect(refused).toBe(429);

    // Another address is not affected.
    const elsewhere = await request('127.0.0.2');
    expect(elsewhere.status).toBe(200);

    // A closed connection frees its place.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await new Promise((r) => setTimeout(r, 50));
    const again = await request();
    expect(again.status).toBe(200);
    for (const c of [...held, elsewhere, again]) c.socket.destroy();
  }, 30_000);

  it('keeps the conversation socket under its own per-address rule, the cap being far above it', async () => {
    const { parseConfig } = await import('../../src/config');
    const { MAX_CONVERSATIONS_PER_IP } = await import('@parla/shared/schemas/conversation');
    // A browser opens up to six connections to a host besides its conversations.
    expect(parseConfig({}).MAX_CONNECTIONS_PER_ADDRESS).toBeGreaterThan(MAX_CONVERSATIONS_PER_IP + 6);
  });
});
