// Gemini Live through the realtime engine, against a stand-in speaking its protocol: setup
// first, text turns, microphone audio as binary frames relayed as realtimeInput, audio and
// transcripts back as binary frames and transcript messages.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars } from '../../../test/conversation-client';
import { GEMINI_KEY, startGeminiLiveStandIn, type GeminiLiveStandIn } from '../../../test/stand-ins/runtime/gemini-live';
import { DEFAULT_REALTIME_VAD } from '../types';

let server: TestServer;
let host: string;
let gemini: GeminiLiveStandIn;

beforeAll(async () => {
  gemini = await startGeminiLiveStandIn();
  server = await createTestServer({ OUTBOUND_ALLOW: gemini.allow });
  host = await listen(server);
  const alice = await createCustomer(server, 'gemini');
  testAvatars(server, {
    gemini: {
      ownerId: alice.id,
      engine: {
        kind: 'realtime',
        provider: 'gemini',
        url: gemini.liveUrl,
        apiKey: GEMINI_KEY,
        model: 'gemini-2.0-flash-exp',
        voice: 'Puck',
        instructions: 'Be brief.',
        vad: DEFAULT_REALTIME_VAD,
        tools: [],
      },
    },
  });
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await gemini.close();
});

describe('Gemini Live', () => {
  it('sends setup first, answers a typed turn and microphone audio with audio frames and transcripts', async () => {
    const c = await connect(host, { avatarId: 'gemini' });
    expect(await c.next('ready')).toMatchObject({ listen: 'server', audio: true });
    expect(gemini.received[0]).toMatchObject({
      setup: {
        model: 'models/gemini-2.0-flash-exp',
        generationConfig: { speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Puck' } } } },
      },
    });
    const done = await c.ask('hello');
    expect(done.text).toBe('Gemini heard: hello');
    expect((await c.audioFrames(1))[0]!.header).toMatchObject({ turnId: done.turnId, format: 'pcm16', sampleRate: 24000 });
    for (let i = 0; i < 3; i++) c.sendBinary(Buffer.alloc(3200, 2));
    expect((await c.next('transcript')).text).toBe('hello from audio');
    expect((await c.next('assistant_done')).text).toBe('I heard your voice.');
    expect(gemini.audioBytes).toBe(9600);
  });
});
