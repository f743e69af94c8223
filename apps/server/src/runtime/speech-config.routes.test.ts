// Saved avatars get the speech their Brain tab chose (decision 612): Simple mode and "Default"
// speak through the product's own speech when SPEECH_BASE_URL is set and through the embedded
// voice when it is not (decision 122), the browser still listening; a Composite avatar's Deepgram and ElevenLabs are used whatever its
// brain; the context phrases reach the STT.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Avatar } from '@parla/shared/schemas/avatar';
import { AvatarEngine } from '@parla/shared/enums';
import { createTestServer, type TestServer } from '../../test/harness';
import { createCustomer, type TestAccount } from '../../test/accounts';
import { closeAll, connect, listen, type TestConversation } from '../../test/conversation-client';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../test/stand-ins/runtime/openai';
import { startOpenAiAudioStandIn, SPEECH_STAND_IN_KEY, type OpenAiAudioStandIn } from '../../test/stand-ins/runtime/openai-audio';
import { DEEPGRAM_KEY, ELEVEN_KEY, startSpeechStandIn, type SpeechStandIn } from '../../test/stand-ins/runtime/speech';
import { save } from '../../test/avatar-requests';
import type { PipelineConfig } from '@parla/shared/schemas/avatar';
import { SpeechConfigMapper } from './speech-config';

interface World {
  server: TestServer;
  host: string;
  alice: TestAccount;
  appearance: { id: string; type: string };
}

let openai: OpenAiStandIn;
let audio: OpenAiAudioStandIn;
let speech: SpeechStandIn;
let withSpeech: World;
let without: World;

async function world(env: Record<string, string>): Promise<World> {
  const server = await createTestServer({
    OUTBOUND_ALLOW: [openai.allow, audio.allow, speech.allow].join(','),
    PROVIDER_URL_OVERRIDES: `api.deepgram.com=${speech.url},api.elevenlabs.io=${speech.url}`,
    LLM_BASE_URL: `${openai.url}/v1`,
    LLM_API_KEY: STAND_IN_KEY,
    ...env,
  });
  const host = await listen(server);
  const alice = await createCustomer(server, 'speech-config');
  await server.ctx.db.updateTable('users').set({ subscription_type: 4 }).where('id', '=', alice.id).execute();
  const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
  const appearance = (cat.json().avatars as { id: string; type: string }[]).find((a) => a.type === '2d')!;
  return { server, host, alice, appearance };
}

async function avatar(w: World, extra: Record<string, unknown> = {}): Promise<Avatar & { token: string }> {
  const base = { name: 'Nova', dhType: w.appearance.type, appearanceId: w.appearance.id };
  const res = await save(w.server, w.alice.token, base);
  expect(res.statusCode, res.body).toBe(200);
  const created = res.json().agent as Avatar & { token: string; updated: string };
  if (!Object.keys(extra).length) return created;
  const upd = await save(w.server, w.alice.token, { ...base, id: created.id, updated: created.updated, ...extra });
  expect(upd.statusCode, upd.body).toBe(200);
  return upd.json().agent;
}

/** The first `count` audio frames of one turn (the greeting's frames come first). */
async function framesOf(c: TestConversation, turnId: string, count: number): Promise<TestConversation['audio']> {
  for (let n = 1; ; n++) {
    const mine = (await c.audioFrames(n)).filter((f) => f.header.turnId === turnId);
    if (mine.length >= count) return mine;
  }
}

function speak(c: TestConversation): void {
  c.send({ type: 'user_speech', event: 'start', at: 0 });
  for (let i = 0; i < 3; i++) c.sendBinary(Buffer.alloc(6400, 7));
  c.send({ type: 'user_speech', event: 'end', at: 600 });
}

const fastTurns = { vad_options: { min_endpointing_delay: 0.05 } };

beforeAll(async () => {
  [openai, audio, speech] = await Promise.all([startOpenAiStandIn(), startOpenAiAudioStandIn(), startSpeechStandIn()]);
  [withSpeech, without] = await Promise.all([
    world({ SPEECH_BASE_URL: `${audio.url}/v1`, SPEECH_API_KEY: SPEECH_STAND_IN_KEY, SPEECH_TTS_VOICE: 'nova' }),
    world({}),
  ]);
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await Promise.all([withSpeech.server.close(), without.server.close()]);
  await Promise.all([openai.close(), audio.close(), speech.close()]);
});

describe('the product speech (SPEECH_BASE_URL)', () => {
  it('a Simple avatar listens and speaks through it: the utterance reaches its STT, the product model answers, its TTS speaks the answer as binary frames', async () => {
    const w = withSpeech;
    const a = await avatar(w, {
      nlpEngine: AvatarEngine.LargeLanguageModel,
      setupMode: 'Simple',
      customData: { agent_pipeline_config: { llm: { provider: 'groq', custom_text: 'Guest: Ada.' }, ...fastTurns } },
    });
    const c = await connect(w.host, { avatarId: a.id, token: a.token });
    expect(await c.next('ready')).toMatchObject({ listen: 'server', audio: true });
    await c.next('assistant_done'); // the greeting: the brain's answer to the wake-up message (speech over it interrupts it)
    const heard = audio.heard.length;
    speak(c);
    expect((await c.next('transcript', (m) => m.final)).text).toBe('what are your opening hours');
    const done = await c.next('assistant_done', (m) => !m.interrupted);
    expect(done.text).toBe('You asked: what are your opening hours');
    expect(audio.heard.length).toBe(heard + 1);
    expect(audio.heard.at(-1)!.pcmBytes).toBe(19200);
    expect(audio.spoken.at(-1)).toMatchObject({ input: 'You asked: what are your opening hours', voice: 'nova' });
    const frames = await framesOf(c, done.turnId, 1);
    expect(frames[0]!.header).toMatchObject({ turnId: done.turnId, format: 'pcm16' });
  });

  it('a new avatar (Echo, Default speech) speaks through it too, and its context phrases reach the recogniser as a prompt', async () => {
    const w = withSpeech;
    const a = await avatar(w, {
      nlpEngine: AvatarEngine.EchoTest,
      setupMode: 'Composite',
      customData: {
        agent_pipeline_config: {
          stt: { provider: 'default', languages: 'de-DE', context_phrases: 'Parla, Nova\nAda' },
          tts: { provider: 'default' },
          ...fastTurns,
        },
      },
    });
    const c = await connect(w.host, { avatarId: a.id, token: a.token });
    expect(await c.next('ready')).toMatchObject({ listen: 'server', audio: true });
    await c.next('assistant_done'); // the greeting: the brain's answer to the wake-up message (speech over it interrupts it)
    speak(c);
    expect((await c.next('assistant_done', (m) => !m.interrupted)).text).toBe('what are your opening hours');
    expect(audio.heard.at(-1)).toMatchObject({ language: 'de', prompt: 'Parla, Nova, Ada' });
  });

  it('without it, Simple and Default avatars speak with the embedded voice: audio frames with visemes of its phonemes; the browser still listens', async () => {
    const w = without;
    for (const extra of [
      {
        nlpEngine: AvatarEngine.LargeLanguageModel,
        setupMode: 'Simple',
        customData: { agent_pipeline_config: { llm: { provider: 'groq', custom_text: 'Guest: Ada.' } } },
      },
      {},
    ]) {
      const a = await avatar(w, extra);
      const c = await connect(w.host, { avatarId: a.id, token: a.token });
      const ready = await c.next('ready');
      expect(ready.listen).toBe('browser');
      expect(ready.audio).toBe(true);
      await c.next('assistant_done'); // the greeting
      c.send({ type: 'user_text', text: 'Tell me about your opening hours.' });
      const done = await c.next('assistant_done', (m) => !m.interrupted && m.text.includes('opening hours'));
      const frames = await framesOf(c, done.turnId, 1);
      const header = frames[0]!.header;
      expect(header).toMatchObject({ format: 'pcm16', sampleRate: 16000 });
      expect(frames[0]!.bytes).toBeGreaterThan(16000);
      expect(new Set(header.visemes?.map((v) => v.viseme)).size).toBeGreaterThan(4);
      expect(header.words?.map((x) => x.word)).toContain('opening');
    }
  });

  it("a non-English avatar keeps the browser's voice (the embedded voices speak English only)", async () => {
    const german = await avatar(without, { customData: { agent_pipeline_config: { stt: { provider: 'default', languages: 'de-DE' } } } });
    const c = await connect(without.host, { avatarId: german.id, token: german.token });
    expect((await c.next('ready')).audio).toBeUndefined();
  });

  it('the embedded voice fits the face: a female appearance gets slt, a male one rms (awb in British English), and a voice picked in the Brain tab wins', () => {
    const mapper = new SpeechConfigMapper(
      { SPEECH_STT_MODEL: 'w', SPEECH_TTS_MODEL: 't', SPEECH_TTS_VOICE: 'v', EMBEDDED_VOICE: true },
      (u) => u,
    );
    const p = (tts: Record<string, unknown>) => ({ tts, stt: { languages: 'en-GB' } }) as PipelineConfig;
    expect(mapper.speech(false, p({ provider: 'default' }), 'female')?.tts).toMatchObject({ provider: 'embedded', voiceId: 'slt' });
    // Of its accent too: British English men get the Scottish voice (Flite's only one of the islands).
    expect(mapper.speech(true, p({}), 'male')?.tts).toMatchObject({ provider: 'embedded', voiceId: 'awb' });
    const us = { tts: {}, stt: { languages: 'en-US' } } as PipelineConfig;
    expect(mapper.speech(true, us, 'male')?.tts).toMatchObject({ provider: 'embedded', voiceId: 'rms' });
    expect(mapper.speech(false, p({ provider: 'default', voice_id: 'awb' }), 'female')?.tts).toMatchObject({ voiceId: 'awb' });
    // Picked in the Brain tab, an embedded voice speaks even where a speech server is set.
    const server = new SpeechConfigMapper(
      {
        SPEECH_BASE_URL: 'http://speech.test/v1',
        SPEECH_STT_MODEL: 'w',
        SPEECH_TTS_MODEL: 't',
        SPEECH_TTS_VOICE: 'v',
        EMBEDDED_VOICE: true,
      },
      (u) => u,
    );
    expect(server.speech(false, p({ provider: 'default', voice_id: 'slt' }), 'female')?.tts).toMatchObject({
      provider: 'embedded',
      voiceId: 'slt',
    });
    expect(server.speech(false, p({ provider: 'default' }), 'female')?.tts).toMatchObject({ provider: 'openai', voiceId: 'v' });
    // EMBEDDED_VOICE=false: the browser speaks, as before.
    const off = new SpeechConfigMapper(
      { SPEECH_STT_MODEL: 'w', SPEECH_TTS_MODEL: 't', SPEECH_TTS_VOICE: 'v', EMBEDDED_VOICE: false },
      (u) => u,
    );
    expect(off.speech(false, p({ provider: 'default' }), 'female')).toBeNull();
    // A provider the customer configured keeps priority over the embedded voice.
    expect(mapper.speech(false, p({ provider: 'elevenlabs', voice_id: 'x', api_key: 'k' }), 'male')?.tts).toMatchObject({
      provider: 'elevenlabs',
    });
  });

  it('the Brain tab learns whether the server speaks (serverSpeech beside serverLlm)', async () => {
    const on = await withSpeech.server.inject({ method: 'GET', url: '/api/brain/catalogue', token: withSpeech.alice.token });
    const off = await without.server.inject({ method: 'GET', url: '/api/brain/catalogue', token: without.alice.token });
    expect(on.json().serverSpeech).toBe(true);
    expect(off.json().serverSpeech).toBe(false);
    // The embedded voices can be picked under "Default" (issue 35).
    expect(off.json().embeddedVoice).toBe(true);
    expect((off.json().defaultVoices as { id: string; gender: string }[]).slice(0, 2)).toMatchObject([
      { id: 'slt', gender: 'Female' },
      { id: 'rms', gender: 'Male' },
    ]);
  });
});

describe('a Composite avatar uses the STT and TTS of its Brain tab whatever its brain', () => {
  it('Echo with Deepgram and ElevenLabs: the audio streams to Deepgram, ElevenLabs speaks the answer with word timings', async () => {
    const w = without;
    const a = await avatar(w, {
      nlpEngine: AvatarEngine.EchoTest,
      setupMode: 'Composite',
      customData: {
        agent_pipeline_config: {
          stt: { provider: 'deepgram', api_key: DEEPGRAM_KEY, languages: 'en-US' },
          tts: { provider: 'elevenlabs', api_key: ELEVEN_KEY, voice_id: 'voice-1' },
          ...fastTurns,
        },
      },
    });
    const c = await connect(w.host, { avatarId: a.id, token: a.token });
    expect(await c.next('ready')).toMatchObject({ listen: 'server', audio: true });
    await c.next('assistant_done'); // the greeting: the brain's answer to the wake-up message (speech over it interrupts it)
    const streamed = speech.streamedBytes;
    speak(c);
    const done = await c.next('assistant_done', (m) => !m.interrupted);
    expect(done.text).toBe('what are your opening hours');
    expect(speech.streamedBytes - streamed).toBe(19200);
    const [frame] = await framesOf(c, done.turnId, 1);
    expect(frame!.header.words?.map((x) => x.word)).toEqual(['what', 'are', 'your', 'opening', 'hours']);
    expect(w.server.logs.join('')).not.toContain(ELEVEN_KEY);
  });
});
