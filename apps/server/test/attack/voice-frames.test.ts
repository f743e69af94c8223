// Hostile microphone audio on the conversation socket (decision 611): a flood of binary frames
// is counted in the frame rate limit and ends the conversation (4129); frames above the size
// limit close with 1009; random bytes of every size never crash the server, and a provider
// that echoes the key back in garbage never puts it in a log.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, CONVERSATION_MAX_FRAMES_PER_SECOND } from '@parla/shared/schemas/conversation';
import { MIC_MAX_FRAME_BYTES } from '@parla/shared/audio-frames';
import { createTestServer, type TestServer } from '../harness';
import { createCustomer } from '../accounts';
import { closeAll, connect, listen, testAvatars } from '../conversation-client';
import { startHttp, type StandIn } from '../stand-ins/runtime/http';
import { DEFAULT_TURN_SETTINGS } from '../../src/runtime/types';

const KEY = 'sk-speech-attack-key-0123456789';
let server: TestServer;
let host: string;
let echoing: StandIn;

beforeAll(async () => {
  // A "speech provider" that answers every request with garbage that contains the key it got.
  echoing = await startHttp((req, res) => {
    res.statusCode = 500;
    res.end(`upstream exploded: ${String(req.headers.authorization)} ${'x'.repeat(50)}`);
  });
  server = await createTestServer({ OUTBOUND_ALLOW: echoing.allow });
  host = await listen(server);
  const alice = await createCustomer(server, 'voice-attack');
  const api = { apiBase: `${echoing.url}/v1`, apiKey: KEY };
  testAvatars(server, {
    voiced: {
      ownerId: alice.id,
      engine: {
        kind: 'echo',
        speech: {
          stt: { provider: 'openai', ...api, language: 'en-US' },
          tts: { provider: 'openai', ...api, voiceId: 'alloy' },
          turn: { ...DEFAULT_TURN_SETTINGS, minEndpointingDelay: 0 },
        },
      },
    },
  });
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await echoing.close();
});

describe('hostile microphone frames', () => {
  it('a flood of binary frames is counted in the frame rate limit and ends the conversation with 4129', async () => {
    const c = await connect(host, { avatarId: 'voiced' });
    await c.next('ready');
    for (let i = 0; i < CONVERSATION_MAX_FRAMES_PER_SECOND * 6; i++) c.sendBinary(Buffer.alloc(2, 1));
    expect((await c.closed).code).toBe(CLOSE_CODES.rateLimited);
  });

  it('a frame above the microphone limit closes with 1009; random frames of odd sizes are refused one by one and the server keeps answering', async () => {
    const c = await connect(host, { avatarId: 'voiced' });
    await c.next('ready');
    for (const size of [1, 3, 31, 1001]) c.sendBinary(Buffer.from(Array.from({ length: size }, (_, i) => (i * 37) % 256)));
    for (let i = 0; i < 4; i++) await c.next('error');
    c.sendBinary(Buffer.alloc(MIC_MAX_FRAME_BYTES + 2));
    expect((await c.closed).code).toBe(CLOSE_CODES.tooLarge);
    const again = await connect(host, { avatarId: 'voiced' });
    await again.next('ready');
  });

  it('a provider answering garbage with the key in it: a notice to the user, the conversation goes on, the key is in no log', async () => {
    const c = await connect(host, { avatarId: 'voiced' });
    await c.next('ready');
    c.send({ type: 'user_speech', event: 'start', at: 0 });
    c.sendBinary(Buffer.alloc(3200, 1));
    c.send({ type: 'user_speech', event: 'end', at: 500 });
    expect((await c.next('notice')).reason).toBe('engine_unavailable');
    c.send({ type: 'user_text', text: 'typed' });
    expect((await c.next('notice')).reason).toBe('engine_unavailable');
    expect((await c.next('assistant_done')).text).toBe('typed');
    await new Promise((r) => setTimeout(r, 100));
    expect(server.logs.join('')).toContain('upstream exploded');
    expect(server.logs.join('')).not.toContain(KEY);
  });
});
