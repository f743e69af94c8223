// A second node process: registers over WS /ws/node, takes a conversation, and when it is
// killed (-9) its conversation ends cleanly and is recorded.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { ErrorCode } from '@parla/shared/errors';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createAdmin, createCustomer, type TestAccount } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars } from '../../../test/conversation-client';
import { RUN_TS } from '../../../test/run-ts';
import { startOpenAiAudioStandIn, SPEECH_STAND_IN_KEY, type OpenAiAudioStandIn } from '../../../test/stand-ins/runtime/openai-audio';
import { DEFAULT_TURN_SETTINGS } from '../types';

const NODE_MAIN = join(dirname(fileURLToPath(import.meta.url)), '../../node-main.ts');
const SECRET = 'node-secret-0123456789abcdef';

let server: TestServer;
let host: string;
let alice: TestAccount;
let admin: TestAccount;
let audio: OpenAiAudioStandIn;
const children: ChildProcess[] = [];

function startNode(name: string): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [RUN_TS, NODE_MAIN, '--server', `http://${host}`, '--name', name, '--capacity', '3'], {
    env: { PATH: process.env.PATH ?? '', NODE_SECRET: SECRET, OUTBOUND_ALLOW: audio.allow },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited };
}

async function vps(name: string) {
  const res = await server.inject({ method: 'GET', url: '/api/list_vps', token: admin.token });
  return (
    res.json().vpsList as { name: string; status: string; id: string; sessionId: string; remoteIp: string; inProcess: boolean }[]
  ).find((v) => v.name === name);
}

const push = (sessionId: string, message: string) =>
  server.inject({
    method: 'POST',
    url: `/api/conversation/callback/${sessionId}?token=${encodeURIComponent(server.app.runtime.get(sessionId)!.callbackToken)}`,
    payload: { message },
  });

beforeAll(async () => {
  audio = await startOpenAiAudioStandIn();
  server = await createTestServer({ NODE_SECRET: SECRET });
  host = await listen(server);
  alice = await createCustomer(server, 'nodes');
  admin = await createAdmin(server);
  const api = { apiBase: `${audio.url}/v1`, apiKey: SPEECH_STAND_IN_KEY };
  testAvatars(server, {
    echo: { ownerId: alice.id },
    voiced: {
      ownerId: alice.id,
      engine: {
        kind: 'echo',
        speech: {
          stt: { provider: 'openai', ...api, language: 'en-US' },
          tts: { provider: 'openai', ...api, voiceId: 'alloy' },
          turn: { ...DEFAULT_TURN_SETTINGS, minEndpointingDelay: 0.05 },
        },
      },
    },
  });
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await server.close();
  await audio.close();
});

describe('pipeline nodes', () => {
  it('a second process registers, takes a conversation, and when killed -9 the conversation ends recorded', async () => {
    const { child } = startNode('worker-kill');
    await expect.poll(async () => (await vps('worker-kill'))?.status, { timeout: 30_000, interval: 200 }).toBe('AVAILABLE');
    const node = (await vps('worker-kill'))!;
    expect(node).toMatchObject({ inProcess: false, remoteIp: '127.0.0.1' });

    const c = await connect(host, { avatarId: 'echo' }, { type: 'hello', deviceId: 'node-dev' });
    const { sessionId } = await c.next('ready');
    const row = await server.ctx.db.selectFrom('conversations').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
    expect(row.node_id).toBe(node.id);
    expect((await c.ask('through the node')).text).toBe('through the node');
    expect((await vps('worker-kill'))!.sessionId).toBe(sessionId);
    // A push to an engine without server speech comes back from the node as text.
    expect((await push(sessionId, 'pushed through the node')).json()).toEqual({ status: 'OK' });
    expect((await c.next('assistant_done', (m) => m.text === 'pushed through the node')).interrupted).toBeFalsy();

    child.kill('SIGKILL');
    expect((await c.next('error')).code).toBe(ErrorCode.WebSocketError);
    expect((await c.closed).code).toBe(CLOSE_CODES.nodeLost);
    const ended = await server.ctx.db.selectFrom('conversations').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
    expect(ended.ended_at).not.toBeNull();
    expect(ended.end_reason).toBe('node_lost');
    expect((await vps('worker-kill'))!.status).toBe('OFFLINE');
    // New conversations go to the in-process node.
    const next = await connect(host, { avatarId: 'echo' });
    const ready = await next.next('ready');
    const again = await server.ctx.db
      .selectFrom('conversations')
      .select('node_id')
      .where('id', '=', ready.sessionId)
      .executeTakeFirstOrThrow();
    expect(again.node_id).toBe(server.app.runtime.localNode.id);
  }, 60_000);

  it('speech runs on the node: microphone frames reach its STT (base64 on the node protocol) and the client gets binary audio frames', async () => {
    const { child } = startNode('worker-voice');
    await expect.poll(async () => (await vps('worker-voice'))?.status, { timeout: 30_000, interval: 200 }).toBe('AVAILABLE');
    const c = await connect(host, { avatarId: 'voiced' });
    const { sessionId } = await c.next('ready');
    const row = await server.ctx.db.selectFrom('conversations').select('node_id').where('id', '=', sessionId).executeTakeFirstOrThrow();
    expect(row.node_id).toBe((await vps('worker-voice'))!.id);
    c.send({ type: 'user_speech', event: 'start', at: 0 });
    for (let i = 0; i < 3; i++) c.sendBinary(Buffer.alloc(6400, 9));
    c.send({ type: 'user_speech', event: 'end', at: 600 });
    const done = await c.next('assistant_done');
    expect(done.text).toBe('what are your opening hours');
    expect(audio.heard.at(-1)!.pcmBytes).toBe(19200);
    const frames = await c.audioFrames(2);
    expect(frames[0]!.header).toMatchObject({ turnId: done.turnId, format: 'pcm16' });
    // Barge-in on the node after the reply is complete, while its audio still plays: the node
    // knows the avatar speaks until the audio sent has played.
    c.send({ type: 'user_text', text: 'a long answer that the avatar says for several seconds, long enough to speak over it' });
    const long = await c.next('assistant_done', (m) => m.turnId !== done.turnId);
    await expect.poll(() => c.audio.some((f) => f.header.turnId === long.turnId)).toBe(true);
    c.send({ type: 'user_speech', event: 'start', at: 5000 });
    c.sendBinary(Buffer.alloc(3200, 9));
    expect(await c.next('assistant_done', (m) => m.turnId === long.turnId && m.interrupted === true)).toMatchObject({ interrupted: true });
    // A REST callback's push is said by the node's TTS too: its text reaches the stand-in and
    // its audio frames the socket.
    expect((await push(sessionId, 'Your table is ready.')).json()).toEqual({ status: 'OK' });
    const pushed = await c.next('assistant_done', (m) => m.text === 'Your table is ready.');
    await expect.poll(() => c.audio.some((f) => f.header.turnId === pushed.turnId)).toBe(true);
    expect(audio.spoken.map((s) => s.input)).toContain('Your table is ready.');
    child.kill('SIGKILL');
  }, 60_000);

  it('a full node is BUSY and new conversations go to another node', async () => {
    const { child } = startNode('worker-busy');
    await expect.poll(async () => (await vps('worker-busy'))?.status, { timeout: 30_000, interval: 200 }).toBe('AVAILABLE');
    const node = (await vps('worker-busy'))!;
    const nodeOf = async (sessionId: string) =>
      (await server.ctx.db.selectFrom('conversations').select('node_id').where('id', '=', sessionId).executeTakeFirstOrThrow()).node_id;
    for (let i = 0; i < 3; i++) {
      const c = await connect(host, { avatarId: 'echo' }, { type: 'hello', deviceId: `busy-${i}` });
      expect(await nodeOf((await c.next('ready')).sessionId)).toBe(node.id);
    }
    expect((await vps('worker-busy'))!.status).toBe('BUSY');
    const fourth = await connect(host, { avatarId: 'echo' });
    expect(await nodeOf((await fourth.next('ready')).sessionId)).toBe(server.app.runtime.localNode.id);
    await closeAll();
    await expect.poll(async () => (await vps('worker-busy'))?.status).toBe('AVAILABLE');
    child.kill('SIGKILL');
    await expect.poll(async () => (await vps('worker-busy'))?.status).toBe('OFFLINE');
  }, 60_000);

  it('a node that stops heartbeating is marked offline and its conversations end', async () => {
    const { child } = startNode('worker-silent');
    await expect.poll(async () => (await vps('worker-silent'))?.status, { timeout: 30_000, interval: 200 }).toBe('AVAILABLE');
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    child.kill('SIGSTOP');
    server.advance(20_000);
    expect((await c.closed).code).toBe(CLOSE_CODES.nodeLost);
    expect((await vps('worker-silent'))!.status).toBe('OFFLINE');
    child.kill('SIGKILL');
  }, 60_000);

  it('deleting a node disconnects it: its process exits and its record goes', async () => {
    const { exited } = startNode('worker-del');
    await expect.poll(async () => (await vps('worker-del'))?.status, { timeout: 30_000, interval: 200 }).toBe('AVAILABLE');
    const id = (await vps('worker-del'))!.id;
    const del = await server.inject({ method: 'POST', url: '/api/del_vps', token: admin.token, payload: { vpsId: id, mode: 'delete' } });
    expect(del.json()).toEqual({ status: 'OK', vpsId: id });
    expect(await exited).toBe(0);
    expect(await vps('worker-del')).toBeUndefined();
    const again = await server.inject({ method: 'POST', url: '/api/del_vps', token: admin.token, payload: { vpsId: id, mode: 'delete' } });
    expect(again.json().errors).toEqual(['Invalid VPS']);
  }, 60_000);

  it('answers "VPS was already discinnected" for a node that is already offline', async () => {
    const offline = (await vps('worker-kill'))!;
    const del = await server.inject({
      method: 'POST',
      url: '/api/del_vps',
      token: admin.token,
      payload: { vpsId: offline.id, mode: 'delete' },
    });
    expect(del.statusCode).toBe(409);
    expect(del.json().errors).toEqual(['VPS was already discinnected']);
  });
});
