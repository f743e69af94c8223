// Server speech through real conversations (decisions 611, 612): microphone audio as binary
// frames → the OpenAI-audio stand-in (the product's own speech) → the brain → the stand-in's
// speech → binary audio frames with the reply, sentence by sentence; and what a client may not
// send.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '@parla/shared/schemas/conversation';
import { MIC_MAX_FRAME_BYTES } from '@parla/shared/audio-frames';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer, type TestAccount } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars, type TestConversation } from '../../../test/conversation-client';
import {
  startOpenAiAudioStandIn,
  SPEECH_PCM_RATE,
  SPEECH_STAND_IN_KEY,
  type OpenAiAudioStandIn,
} from '../../../test/stand-ins/runtime/openai-audio';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../../test/stand-ins/runtime/openai';
import { ErrorCode } from '@parla/shared/errors';
import { AUDIO_NOT_EXPECTED_MESSAGE } from '../conversation/client-channel';
import { RECOGNITION_FAILED_NOTICE, SPEECH_FAILED_NOTICE } from '../conversation/notices';
import { DEFAULT_TURN_SETTINGS, type SpeechConfig, type TurnSettings } from '../types';

let server: TestServer;
let host: string;
let alice: TestAccount;
let audio: OpenAiAudioStandIn;
let openai: OpenAiStandIn;

const speech = (turn: Partial<TurnSettings> = {}, timeoutMs?: number): SpeechConfig => ({
  stt: {
    provider: 'openai',
    apiBase: `${audio.url}/v1`,
    apiKey: SPEECH_STAND_IN_KEY,
    language: 'en-US',
    model: 'whisper-1',
    phrases: ['Parla', 'Ada Lovelace'],
    ...(timeoutMs ? { timeoutMs } : {}),
  },
  tts: {
    provider: 'openai',
    apiBase: `${audio.url}/v1`,
    apiKey: SPEECH_STAND_IN_KEY,
    voiceId: 'alloy',
    model: 'tts-1',
    ...(timeoutMs ? { timeoutMs } : {}),
  },
  turn: { ...DEFAULT_TURN_SETTINGS, minEndpointingDelay: 0.05, ...turn },
});

/** One second of microphone audio as 5 binary frames between user_speech start and end. */
function speak(c: TestConversation, startMs = 0): void {
  c.send({ type: 'user_speech', event: 'start', at: startMs });
  for (let i = 0; i < 5; i++) c.sendBinary(Buffer.alloc(6400, i + 1));
  c.send({ type: 'user_speech', event: 'end', at: startMs + 1000 });
}

beforeAll(async () => {
  [audio, openai] = await Promise.all([startOpenAiAudioStandIn(), startOpenAiStandIn()]);
  server = await createTestServer({ OUTBOUND_ALLOW: [audio.allow, openai.allow].join(',') });
  host = await listen(server);
  alice = await createCustomer(server, 'voice');
  const llm = {
    kind: 'llm' as const,
    baseUrl: `${openai.url}/v1`,
    apiKey: STAND_IN_KEY,
    model: 'm',
    instructions: 'Be brief.',
    memory: '',
    sendHistory: true,
    tools: [],
  };
  testAvatars(server, {
    echo: { ownerId: alice.id, engine: { kind: 'echo', speech: speech() } },
    llm: { ownerId: alice.id, engine: { ...llm, speech: speech() } },
    browser: { ownerId: alice.id, engine: { kind: 'echo' } },
    fragile: { ownerId: alice.id, engine: { kind: 'echo', speech: speech({}, 300) } },
    patient: { ownerId: alice.id, engine: { kind: 'echo', speech: speech({ minEndpointingDelay: 1 }) } },
  });
});

afterEach(async () => {
  audio.mode = 'ok';
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await Promise.all([audio.close(), openai.close()]);
});

describe('server speech around a brain', () => {
  it('Echo with the product speech: the ready says listen server with audio, the utterance reaches the STT as a WAV, and the reply comes back as binary PCM frames', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    const ready = await c.next('ready');
    expect(ready).toMatchObject({
      listen: 'server',
      audio: true,
      vad: { allow_interruptions: true, min_interruption_duration: 0.5, activation_threshold: 0.5 },
    });
    speak(c);
    expect(await c.next('transcript', (m) => m.final)).toMatchObject({ text: 'what are your opening hours' });
    const done = await c.next('assistant_done');
    expect(done.text).toBe('what are your opening hours');
    const frames = await c.audioFrames(2);
    expect(frames[0]!.header).toMatchObject({ turnId: done.turnId, seq: 0, format: 'pcm16', sampleRate: SPEECH_PCM_RATE });
    expect(frames[0]!.bytes).toBeGreaterThan(0);
    expect(frames.at(-1)!.header).toMatchObject({ turnId: done.turnId, last: true });
    expect(audio.heard.at(-1)).toMatchObject({
      model: 'whisper-1',
      language: 'en',
      prompt: 'Parla, Ada Lovelace',
      pcmBytes: 32000,
      sampleRate: 16000,
    });
    expect(audio.spoken.at(-1)).toEqual({ model: 'tts-1', input: 'what are your opening hours', voice: 'alloy', responseFormat: 'pcm' });
    // Text chat keeps working beside voice (typed while the audio plays, it stops that audio).
    c.send({ type: 'user_text', text: 'hello there' });
    expect((await c.next('assistant_done', (m) => !m.interrupted)).text).toBe('hello there');
  });

  it('asks the recogniser at the end of speech, while the endpointing delay runs; speech within the delay is heard again as one utterance', async () => {
    const c = await connect(host, { avatarId: 'patient' });
    await c.next('ready');
    const heard = audio.heard.length;
    speak(c, 0);
    await expect.poll(() => audio.heard.length).toBe(heard + 1);
    // The delay still runs: the user's turn has not ended.
    expect(c.messages.some((m) => m.type === 'transcript')).toBe(false);
    speak(c, 1200);
    expect(await c.next('transcript', (m) => m.final)).toMatchObject({ text: 'what are your opening hours' });
    expect(audio.heard.length).toBe(heard + 2);
    expect(audio.heard.at(-1)!.pcmBytes).toBe(64000);
    expect((await c.next('assistant_done')).text).toBe('what are your opening hours');
    expect(c.messages.filter((m) => m.type === 'transcript').length).toBe(1);
  });

  it('speaks a reply sentence by sentence as the deltas arrive: the first audio frame comes before the answer is complete', async () => {
    openai.reply = () => ({ content: ['Good morning. ', 'We open at nine. ', 'And we ', 'close at five.'] });
    try {
      const c = await connect(host, { avatarId: 'llm' });
      await c.next('ready');
      const before = audio.spoken.length;
      const done = await c.ask('when do you open?');
      expect(done.text).toBe('Good morning. We open at nine. And we close at five.');
      expect(audio.spoken.slice(before).map((s) => s.input)).toEqual(['Good morning.', 'We open at nine.', 'And we close at five.']);
      const frames = await c.audioFrames(4);
      expect(frames.map((f) => f.header.seq)).toEqual([0, 1, 2, 3]);
    } finally {
      openai.reply = (messages) => ({
        content: ['You asked: ', String([...messages].reverse().find((m) => m.role === 'user')?.content ?? '')],
      });
    }
  });

  it('without server speech the ready says browser and no audio, and microphone frames are refused with an error while the conversation goes on', async () => {
    const c = await connect(host, { avatarId: 'browser' });
    const ready = await c.next('ready');
    expect(ready.listen).toBe('browser');
    expect(ready.audio).toBeUndefined();
    c.sendBinary(Buffer.alloc(3200));
    expect((await c.next('error')).message).toBe(AUDIO_NOT_EXPECTED_MESSAGE);
    expect((await c.ask('still here')).text).toBe('still here');
  });
});

describe('bad microphone input', () => {
  it('a malformed frame (odd length, empty) is answered with an error and dropped; the conversation survives', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    c.sendBinary(Buffer.alloc(3201));
    expect((await c.next('error')).message).toMatch(/even number of bytes/);
    c.sendBinary(Buffer.alloc(0));
    expect((await c.next('error')).message).toMatch(/Empty audio frame/);
    expect((await c.ask('fine')).text).toBe('fine');
  });

  it('a frame above the size limit closes the conversation with 1009', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    c.sendBinary(Buffer.alloc(MIC_MAX_FRAME_BYTES + 2));
    expect((await c.closed).code).toBe(CLOSE_CODES.tooLarge);
  });

  it('a JSON user_audio message gets the error of any unknown message type, and the conversation goes on', async () => {
    const c = await connect(host, { avatarId: 'echo' });
    await c.next('ready');
    c.send({ type: 'user_audio', audio: Buffer.alloc(3200).toString('base64'), sampleRate: 16000 });
    const unknown = await c.next('error');
    c.send({ type: 'no_such_message' });
    expect(await c.next('error', (m) => m !== unknown)).toMatchObject({ code: unknown.code, message: unknown.message });
    expect(unknown.code).toBe(ErrorCode.InvalidOrMissingParams);
    expect(unknown.message).not.toContain('user_audio');
    c.send({ type: 'user_text', text: 'still here' });
    expect((await c.next('assistant_done')).text).toBe('still here');
  });

  it('a speech provider that hangs gives the user a notice, the conversation goes on and no key is logged', async () => {
    audio.mode = 'hang';
    const c = await connect(host, { avatarId: 'fragile' });
    await c.next('ready');
    speak(c);
    expect((await c.next('notice')).message).toBe(RECOGNITION_FAILED_NOTICE);
    c.send({ type: 'user_text', text: 'typed instead' });
    expect((await c.next('notice')).message).toBe(SPEECH_FAILED_NOTICE);
    expect((await c.next('assistant_done')).text).toBe('typed instead');
    expect(server.logs.join('')).not.toContain(SPEECH_STAND_IN_KEY);
  });

  it('a speech provider that answers garbage gives the user a notice and the conversation goes on', async () => {
    audio.mode = 'garbage';
    const c = await connect(host, { avatarId: 'fragile' });
    await c.next('ready');
    speak(c);
    expect((await c.next('notice')).message).toBe(RECOGNITION_FAILED_NOTICE);
    c.send({ type: 'user_text', text: 'typed' });
    expect((await c.next('notice')).message).toBe(SPEECH_FAILED_NOTICE);
    expect((await c.next('assistant_done')).text).toBe('typed');
    expect(c.audio.length).toBe(0);
    expect(server.logs.join('')).not.toContain(SPEECH_STAND_IN_KEY);
  });
});
