// Replies a brain starts by itself (a REST endpoint's callback push, delivered by decision 630's
// deliveries) are spoken by the avatar's server speech like any reply: audio frames on the
// socket, and speech over them interrupts them. The echo an avatar falls back to after its
// daily limit keeps that speech.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars } from '../../../test/conversation-client';
import {
  startOpenAiAudioStandIn,
  SPEECH_PCM_RATE,
  SPEECH_STAND_IN_KEY,
  type OpenAiAudioStandIn,
} from '../../../test/stand-ins/runtime/openai-audio';
import { DAILY_LIMIT_NOTICE } from '../conversation/conversation';
import { DEFAULT_TURN_SETTINGS, type SpeechConfig } from '../types';

let server: TestServer;
let host: string;
let audio: OpenAiAudioStandIn;

const PUSHED = 'Your order has shipped and will arrive tomorrow morning before ten.';

const push = (sessionId: string, message = PUSHED) =>
  server.inject({
    method: 'POST',
    url: `/api/conversation/callback/${sessionId}?token=${encodeURIComponent(server.app.runtime.get(sessionId)!.callbackToken)}`,
    payload: { message },
  });

beforeAll(async () => {
  audio = await startOpenAiAudioStandIn();
  server = await createTestServer({ OUTBOUND_ALLOW: audio.allow });
  host = await listen(server);
  const alice = await createCustomer(server, 'spoken-pushes');
  const speech: SpeechConfig = {
    stt: { provider: 'openai', apiBase: `${audio.url}/v1`, apiKey: SPEECH_STAND_IN_KEY, language: 'en-US' },
    tts: { provider: 'openai', apiBase: `${audio.url}/v1`, apiKey: SPEECH_STAND_IN_KEY, voiceId: 'alloy' },
    turn: { ...DEFAULT_TURN_SETTINGS, minEndpointingDelay: 0.05, minInterruptionDuration: 0.2 },
  };
  testAvatars(server, {
    spoken: { ownerId: alice.id, engine: { kind: 'echo', speech } },
    limited: {
      ownerId: alice.id,
      engine: { kind: 'echo', speech },
      limits: { dailyLimitPerSession: 30, dailyLimitPerIP: -1, demo: -1, idleTimeout: 300 },
    },
  });
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await audio.close();
});

describe('replies a brain starts by itself', () => {
  it("a callback push is spoken by the avatar's TTS: its text reaches the stand-in and its audio frames reach the socket", async () => {
    const c = await connect(host, { avatarId: 'spoken' });
    const { sessionId } = await c.next('ready');
    expect((await push(sessionId)).json()).toEqual({ status: 'OK' });
    const done = await c.next('assistant_done');
    expect(done.text).toBe(PUSHED);
    const frames = await c.audioFrames(2);
    expect(frames[0]!.header).toMatchObject({ turnId: done.turnId, seq: 0, format: 'pcm16', sampleRate: SPEECH_PCM_RATE });
    expect(frames.at(-1)!.header).toMatchObject({ turnId: done.turnId, last: true });
    expect(audio.spoken.map((s) => s.input)).toContain(PUSHED);
  });

  it('speech over a pushed reply interrupts it like any reply', async () => {
    const c = await connect(host, { avatarId: 'spoken' });
    const { sessionId } = await c.next('ready');
    await push(sessionId);
    const done = await c.next('assistant_done');
    await c.audioFrames(2);
    c.send({ type: 'user_speech', event: 'start', at: 1000 });
    c.sendBinary(Buffer.alloc(3200, 1));
    expect(await c.next('assistant_done', (m) => m.interrupted === true)).toMatchObject({ turnId: done.turnId, interrupted: true });
  });
});

describe('the echo of the daily limit', () => {
  it("keeps the avatar's server speech, mid-conversation and when a conversation starts in echo", async () => {
    const c = await connect(host, { avatarId: 'limited' }, { type: 'hello', deviceId: 'spoken-limit' });
    expect(await c.next('ready')).toMatchObject({ listen: 'server', audio: true });
    server.advance(31_000);
    await server.app.runtime.tickAll();
    expect((await c.next('notice')).message).toBe(DAILY_LIMIT_NOTICE);
    c.send({ type: 'user_text', text: 'still speaking' });
    const done = await c.next('assistant_done', (m) => m.text === 'still speaking');
    expect((await c.audioFrames(1))[0]!.header).toMatchObject({ turnId: done.turnId, format: 'pcm16' });
    c.ws.close();
    await c.closed;

    const again = await connect(host, { avatarId: 'limited' }, { type: 'hello', deviceId: 'spoken-limit' });
    expect(await again.next('ready')).toMatchObject({ engine: 'Echo', listen: 'server', audio: true });
    again.send({ type: 'user_speech', event: 'start', at: 0 });
    for (let i = 0; i < 3; i++) again.sendBinary(Buffer.alloc(6400, 2));
    again.send({ type: 'user_speech', event: 'end', at: 600 });
    const heard = await again.next('assistant_done');
    expect(heard.text).toBe(audio.transcript);
    expect((await again.audioFrames(1))[0]!.header.turnId).toBe(heard.turnId);
  });
});
