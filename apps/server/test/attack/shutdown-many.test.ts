// SIGTERM to a real server process holding 1,000 open conversations (issue 40): it exits within
// its grace period, and every client is told why its conversation ends (a `bye` with the reason
// 'server', then the close code serverClosing) so the player reconnects elsewhere. Servers started
// for outside checks with about this many idle conversations were still running an hour after
// SIGTERM. The sockets come from 250 loopback addresses (127.0.0.x, 4 each: the per-address cap is
// 5) and open in batches. The process keeps its data in PGlite, or in PostgreSQL when
// TEST_DATABASE_URL is set (test/server-process.ts).
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { saveAvatar, serverHome, type ServerHome, type ServerProcess } from '../server-process';

const CONVERSATIONS = 1000;
const PER_ADDRESS = 4;
const BATCH = 100;
const GRACE_MS = 10_000;

let home: ServerHome;
let server: ServerProcess;
let avatar: { id: string; token: string };

beforeAll(async () => {
  const t0 = performance.now();
  home = await serverHome();
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  server = await home.start({ LOCAL_NODE_CAPACITY: String(CONVERSATIONS + 50), SHUTDOWN_GRACE_MS: String(GRACE_MS), LOG_LEVEL: 'info' });
  console.log(`started in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  avatar = await saveAvatar(server.url, await home.login(server.url));
}, 120_000);
afterAll(() => home?.remove());

interface Held {
  ws: WebSocket;
  bye: string | null;
  closed: Promise<number>;
}

/** Opens one conversation from its loopback address and resolves once it is ready (idle); a
 *  connection the loaded host reset is tried again. */
async function open(i: number): Promise<Held> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openOnce(i);
    } catch (err) {
      if (attempt >= 3) throw err;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

function openOnce(i: number): Promise<Held> {
  const localAddress = `127.0.0.${1 + Math.floor(i / PER_ADDRESS)}`;
  const ws = new WebSocket(`ws://${server.host}/ws/conversation?${new URLSearchParams({ avatarId: avatar.id, token: avatar.token })}`, {
    localAddress,
    perMessageDeflate: false,
  });
  const held: Held = { ws, bye: null, closed: new Promise((r) => ws.once('close', (code) => r(code))) };
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      clearTimeout(timer);
      ws.terminate();
      reject(err);
    };
    const timer = setTimeout(() => fail(new Error(`conversation ${i} was not ready within 30 s`)), 30_000);
    ws.once('error', fail);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'hello', deviceId: `many-${i}` })));
    ws.on('message', (data, binary) => {
      if (binary) return;
      const m = JSON.parse(String(data)) as { type: string; reason?: string; message?: string };
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve(held);
      }
      if (m.type === 'bye') held.bye = m.reason ?? '';
      if (m.type === 'error' && !held.bye) fail(new Error(`conversation ${i}: ${m.message}`));
    });
  });
}

describe('SIGTERM with 1,000 open conversations', () => {
  it('exits within the grace period and tells every client why', async () => {
    const opening = performance.now();
    const held: Held[] = [];
    for (let i = 0; i < CONVERSATIONS; i += BATCH)
      held.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, CONVERSATIONS - i) }, (_, j) => open(i + j)))));
    expect(held).toHaveLength(CONVERSATIONS);
    console.log(`${CONVERSATIONS} conversations opened in ${((performance.now() - opening) / 1000).toFixed(1)} s`);

    const t0 = performance.now();
    server.proc.kill('SIGTERM');
    const exit = await Promise.race([server.exited, new Promise<null>((r) => setTimeout(() => r(null), GRACE_MS + 20_000))]);
    if (!exit) server.proc.kill('SIGKILL');
    const seconds = exit ? (exit.at - t0) / 1000 : Infinity;
    console.log(`shutdown with ${CONVERSATIONS} conversations: exit ${exit?.code ?? 'none'} after ${seconds.toFixed(2)} s`);
    console.log(server.output().slice(-3000));
    expect(exit, `no exit within ${GRACE_MS + 20_000} ms:\n${server.output().slice(-3000)}`).not.toBeNull();
    expect(seconds * 1000).toBeLessThanOrEqual(GRACE_MS);
    const codes = await Promise.all(held.map((h) => h.closed));
    expect(codes.filter((c) => c !== CLOSE_CODES.serverClosing)).toEqual([]);
    expect(held.filter((h) => h.bye !== 'server')).toHaveLength(0);
  }, 120_000);
});
