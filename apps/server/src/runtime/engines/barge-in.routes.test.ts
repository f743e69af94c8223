// Barge-in (decision 611): speech over the avatar that lasts min_interruption_duration (and,
// when set, reaches min_interruption_words of the STT's interim words) cuts the turn;
// allow_interruptions false lets the avatar finish.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars, type TestConversation } from '../../../test/conversation-client';
import { startOpenAiAudioStandIn, SPEECH_STAND_IN_KEY, type OpenAiAudioStandIn } from '../../../test/stand-ins/runtime/openai-audio';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../../test/stand-ins/runtime/openai';
import { DEEPGRAM_KEY, startSpeechStandIn, type SpeechStandIn } from '../../../test/stand-ins/runtime/speech';
import { DEFAULT_TURN_SETTINGS, type SpeechConfig, type SttConfig, type TurnSettings } from '../types';

let server: TestServer;
let host: string;
let audio: OpenAiAudioStandIn;
let openai: OpenAiStandIn;
let deepgram: SpeechStandIn;

const LONG = 'This is a long answer that takes the avatar several seconds to say out loud.';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function speech(turn: Partial<TurnSettings>, stt?: SttConfig): SpeechConfig {
  return {
    stt: stt ?? { provider: 'openai', apiBase: `${audio.url}/v1`, apiKey: SPEECH_STAND_IN_KEY, language: 'en-US' },
    tts: { provider: 'openai', apiBase: `${audio.url}/v1`, apiKey: SPEECH_STAND_IN_KEY, voiceId: 'alloy' },
    turn: { ...DEFAULT_TURN_SETTINGS, minEndpointingDelay: 0.05, minInterruptionDuration: 0.3, ...turn },
  };
}

/** Asks for the long answer and waits until its audio has come (it plays for seconds). */
async function avatarSpeaking(c: TestConversation): Promise<string> {
  await c.next('ready');
  c.send({ type: 'user_text', text: LONG });
  const done = await c.next('assistant_done');
  await c.audioFrames(2);
  return done.turnId;
}

beforeAll(async () => {
  [audio, openai, deepgram] = await Promise.all([startOpenAiAudioStandIn(), startOpenAiStandIn(), startSpeechStandIn()]);
  server = await createTestServer({ OUTBOUND_ALLOW: [audio.allow, openai.allow, deepgram.allow].join(',') });
  host = await listen(server);
  const alice = await createCustomer(server, 'barge');
  const llm = {
    kind: 'llm' as const,
    baseUrl: `${openai.url}/v1`,
    apiKey: STAND_IN_KEY,
    model: 'm',
    instructions: '',
    memory: '',
    sendHistory: true,
    tools: [],
  };
  const streaming: SttConfig = { provider: 'deepgram', apiBase: deepgram.url, apiKey: DEEPGRAM_KEY, language: 'en-US' };
  testAvatars(server, {
    allowed: { ownerId: alice.id, engine: { kind: 'echo', speech: speech({ allowInterruptions: true }) } },
    refused: { ownerId: alice.id, engine: { kind: 'echo', speech: speech({ allowInterruptions: false }) } },
    words: { ownerId: alice.id, engine: { ...llm, speech: speech({ minInterruptionWords: 2 }, streaming) } },
  });
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await Promise.all([audio.close(), openai.close(), deepgram.close()]);
});

describe('barge-in', () => {
  it('allowed: speech over the avatar beyond min_interruption_duration stops its turn (assistant_done interrupted); not allowed: the avatar finishes and the speech is no turn', async () => {
    const a = await connect(host, { avatarId: 'allowed' });
    const turnA = await avatarSpeaking(a);
    a.send({ type: 'user_speech', event: 'start', at: 5000 });
    a.sendBinary(Buffer.alloc(6400, 3));
    expect(await a.next('assistant_done', (m) => m.turnId === turnA)).toMatchObject({ interrupted: true, text: LONG });

    const r = await connect(host, { avatarId: 'refused' });
    const turnR = await avatarSpeaking(r);
    const heard = audio.heard.length;
    r.send({ type: 'user_speech', event: 'start', at: 5000 });
    r.sendBinary(Buffer.alloc(6400, 3));
    await sleep(600);
    r.send({ type: 'user_speech', event: 'end', at: 5600 });
    await expect.poll(() => audio.heard.length).toBe(heard + 1);
    await sleep(200);
    expect(r.messages.filter((m) => m.type === 'assistant_done')).toHaveLength(1);
    expect(r.messages.some((m) => m.type === 'assistant_done' && m.turnId === turnR && m.interrupted)).toBe(false);
  });

  it('shorter speech than min_interruption_duration does not interrupt', async () => {
    const a = await connect(host, { avatarId: 'allowed' });
    await avatarSpeaking(a);
    a.send({ type: 'user_speech', event: 'start', at: 5000 });
    await sleep(100);
    a.send({ type: 'user_speech', event: 'end', at: 5100 });
    await sleep(500);
    expect(a.messages.some((m) => m.type === 'assistant_done' && m.interrupted)).toBe(false);
  });

  it('min_interruption_words: a reply in progress is cut only once the interim transcript has that many words', async () => {
    openai.reply = () => ({ content: ['A long ', 'story.'], delayMs: 3000 });
    try {
      const c = await connect(host, { avatarId: 'words' });
      await c.next('ready');
      c.send({ type: 'user_text', text: 'tell me a story' });
      await c.next('state', (m) => m.state === 'thinking');
      c.send({ type: 'user_speech', event: 'start', at: 100 });
      await sleep(500);
      // Long enough, but no words yet.
      expect(c.messages.some((m) => m.type === 'assistant_done')).toBe(false);
      c.sendBinary(Buffer.alloc(3200, 5));
      expect(await c.next('transcript', (m) => !m.final)).toMatchObject({ text: 'what are' });
      expect(await c.next('assistant_done')).toMatchObject({ interrupted: true });
    } finally {
      openai.reply = (messages) => ({
        content: ['You asked: ', String([...messages].reverse().find((m) => m.role === 'user')?.content ?? '')],
      });
    }
  });
});
