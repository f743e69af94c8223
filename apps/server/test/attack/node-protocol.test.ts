// A pipeline node's frames cross a process boundary: the server validates each one against the
// node protocol (@parla/shared/schemas/node) and refuses a malformed frame with `invalid`, never
// casts it — before, a `null` frame threw inside the socket handler and took the server down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerToNode } from '@parla/shared/schemas/node';
import { createTestServer, type TestServer } from '../harness';
import { createAdmin, type TestAccount } from '../accounts';
import { listen } from '../conversation-client';

const SECRET = 'node-secret-attack-0123456789';
let server: TestServer;
let host: string;
let admin: TestAccount;

beforeAll(async () => {
  server = await createTestServer({ NODE_SECRET: SECRET });
  host = await listen(server);
  admin = await createAdmin(server);
});

afterAll(async () => {
  await server.close();
});

function nodeSocket(): Promise<{ ws: WebSocket; next: () => Promise<ServerToNode> }> {
  const ws = new WebSocket(`ws://${host}/ws/node`, { headers: { authorization: `Bearer ${SECRET}` } });
  const inbox: ServerToNode[] = [];
  const waiting: ((m: ServerToNode) => void)[] = [];
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as ServerToNode;
    const w = waiting.shift();
    if (w) w(m);
    else inbox.push(m);
  });
  const next = () => (inbox.length ? Promise.resolve(inbox.shift()!) : new Promise<ServerToNode>((resolve) => waiting.push(resolve)));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, next }));
    ws.once('error', reject);
  });
}

async function vpsNames(): Promise<string[]> {
  const res = await server.inject({ method: 'GET', url: '/api/list_vps', token: admin.token });
  return (res.json().vpsList as { name: string }[]).map((v) => v.name);
}

describe('malformed node frames', () => {
  it('refuses frames that are not JSON, null, or not a known message, and registers nobody', async () => {
    const { ws, next } = await nodeSocket();
    ws.send('not json');
    expect(await next()).toEqual({ type: 'invalid', message: 'The message is not valid JSON.' });
    ws.send('null');
    expect((await next()).type).toBe('invalid');
    ws.send(JSON.stringify({ type: 'register', name: 'bad-node', capacity: 'lots', address: 'x', privateIp: 'y' }));
    expect((await next()).type).toBe('invalid');
    expect(await vpsNames()).not.toContain('bad-node');
    ws.close();
  });

  it('refuses a malformed frame from a registered node and keeps serving it and everyone else', async () => {
    const { ws, next } = await nodeSocket();
    ws.send(JSON.stringify({ type: 'register', name: 'shaky-node', capacity: 2, address: 'here', privateIp: '10.0.0.9' }));
    expect((await next()).type).toBe('registered');
    ws.send(JSON.stringify({ type: 'event', sessionId: 5, turnId: null, event: { type: 'delta' } }));
    expect((await next()).type).toBe('invalid');
    ws.send(JSON.stringify({ type: 'host', sessionId: 'x', op: 'emit', turnId: 't', event: { type: 'audio', format: 'flac', audio: 1 } }));
    expect((await next()).type).toBe('invalid');
    ws.send(JSON.stringify({ type: 'ping', sessions: 0 }));
    expect((await server.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(await vpsNames()).toContain('shaky-node');
    ws.close();
  });
});
