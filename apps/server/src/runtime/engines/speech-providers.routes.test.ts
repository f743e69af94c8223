// Every TTS of the spec against its stand-in (Polly signed by aws4, Neuphonic over SSE, Azure,
// Cartesia; ElevenLabs with alignment is in composite-speech), and the avatar's context phrases
// reaching the STTs that take them (Deepgram keyterm/keywords, Google speech contexts, Azure
// phrase list), as the stand-ins received them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars, type TestConversation } from '../../../test/conversation-client';
import { startVoicesStandIn, VOICE_KEYS, type VoicesStandIn } from '../../../test/stand-ins/runtime/voices';
import { DEEPGRAM_KEY, startSpeechStandIn, type SpeechStandIn } from '../../../test/stand-ins/runtime/speech';
import { DEFAULT_TURN_SETTINGS, type SpeechConfig, type SttConfig, type TtsConfig } from '../types';

let server: TestServer;
let host: string;
let voices: VoicesStandIn;
let deepgram: SpeechStandIn;

const PHRASES = ['Parla', 'Ada Lovelace'];
const turn = { ...DEFAULT_TURN_SETTINGS, minEndpointingDelay: 0.05 };
const onlyTts = (tts: TtsConfig): SpeechConfig => ({ stt: null, tts, turn });
const onlyStt = (stt: SttConfig): SpeechConfig => ({ stt: { ...stt, phrases: PHRASES }, tts: null, turn });

function speak(c: TestConversation): void {
  c.send({ type: 'user_speech', event: 'start', at: 0 });
  for (let i = 0; i < 3; i++) c.sendBinary(Buffer.alloc(3200, 4));
  c.send({ type: 'user_speech', event: 'end', at: 400 });
}

beforeAll(async () => {
  [voices, deepgram] = await Promise.all([startVoicesStandIn(), startSpeechStandIn()]);
  server = await createTestServer({ OUTBOUND_ALLOW: [voices.allow, deepgram.allow].join(',') });
  host = await listen(server);
  const alice = await createCustomer(server, 'providers');
  const base = voices.url;
  const echo = (speech: SpeechConfig) => ({ ownerId: alice.id, engine: { kind: 'echo' as const, speech } });
  testAvatars(server, {
    polly: echo(
      onlyTts({
        provider: 'polly',
        apiBase: base,
        apiKey: VOICE_KEYS.pollyAccess,
        secretKey: VOICE_KEYS.pollySecret,
        region: 'eu-west-1',
        voiceId: 'Joanna:neural',
      }),
    ),
    pollygen: echo(
      onlyTts({
        provider: 'polly',
        apiBase: base,
        apiKey: VOICE_KEYS.pollyAccess,
        secretKey: VOICE_KEYS.pollySecret,
        region: 'eu-west-1',
        voiceId: 'Joanna:generative',
      }),
    ),
    pollybad: echo(
      onlyTts({
        provider: 'polly',
        apiBase: base,
        apiKey: VOICE_KEYS.pollyAccess,
        secretKey: 'not-the-secret-0123456789',
        region: 'eu-west-1',
        voiceId: 'Joanna:neural',
      }),
    ),
    neuphonic: echo(onlyTts({ provider: 'neuphonic', apiBase: base, apiKey: VOICE_KEYS.neuphonic, voiceId: 'e564ba7e', language: 'de' })),
    azure: echo(onlyTts({ provider: 'azure', apiBase: base, apiKey: VOICE_KEYS.azure, voiceId: 'en-US-JennyNeural' })),
    cartesia: echo(onlyTts({ provider: 'cartesia', apiBase: base, apiKey: VOICE_KEYS.cartesia, voiceId: 'a0e99841' })),
    nova3: echo(onlyStt({ provider: 'deepgram', apiBase: deepgram.url, apiKey: DEEPGRAM_KEY, language: 'en-US', model: 'nova-3' })),
    nova2: echo(onlyStt({ provider: 'deepgram', apiBase: deepgram.url, apiKey: DEEPGRAM_KEY, language: 'en-US', model: 'nova-2' })),
    google: echo(onlyStt({ provider: 'google', apiBase: base, apiKey: VOICE_KEYS.google, language: 'en-GB' })),
    azurestt: echo(onlyStt({ provider: 'azure', apiBase: base, apiKey: VOICE_KEYS.azure, language: 'en-GB' })),
    novamulti: echo(
      onlyStt({
        provider: 'deepgram',
        apiBase: deepgram.url,
        apiKey: DEEPGRAM_KEY,
        language: 'en-US',
        model: 'nova-3',
        alternativeLanguages: ['es-ES'],
      }),
    ),
    googlemulti: echo(
      onlyStt({
        provider: 'google',
        apiBase: base,
        apiKey: VOICE_KEYS.google,
        language: 'en-GB',
        alternativeLanguages: ['fr-FR', 'de-DE', 'es-ES', 'it-IT'],
      }),
    ),
    azuremulti: echo(
      onlyStt({ provider: 'azure', apiBase: base, apiKey: VOICE_KEYS.azure, language: 'en-GB', alternativeLanguages: ['fr-FR'] }),
    ),
  });
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await Promise.all([voices.close(), deepgram.close()]);
});

describe('every TTS of the spec speaks through its real protocol', () => {
  const cases = [
    ['polly', 'polly', 'Joanna/neural: Good evening.', 16000],
    ['neuphonic', 'neuphonic', 'de: Good evening.', 22050],
    ['azure', 'azure', 'Good evening.', 16000],
    ['cartesia', 'cartesia', 'Good evening.', 16000],
  ] as const;
  for (const [avatarId, provider, said, rate] of cases) {
    it(`${provider}: the typed message is spoken and its PCM reaches the socket as binary frames`, async () => {
      const c = await connect(host, { avatarId });
      expect(await c.next('ready')).toMatchObject({ listen: 'browser', audio: true });
      const done = await c.ask('Good evening.');
      expect(voices.said[provider].at(-1)).toBe(said);
      const frames = await c.audioFrames(2);
      expect(frames[0]!.header).toMatchObject({ turnId: done.turnId, format: 'pcm16', sampleRate: rate });
      expect(frames[0]!.bytes).toBeGreaterThan(1000);
    });
  }

  it("polly: its speech marks drive the lips: the audio frames carry Polly's visemes (as the faces' Oculus names) and words", async () => {
    const c = await connect(host, { avatarId: 'polly' });
    await c.next('ready');
    await c.ask('Maybe so.');
    const [frame] = await c.audioFrames(1);
    expect(voices.markTypes.at(-1)).toEqual(['viseme', 'word']);
    const header = frame!.header as {
      visemes?: { viseme: string; start: number; end: number }[];
      words?: { word: string; start: number }[];
    };
    expect(header.words?.map((w) => [w.word, w.start])).toEqual([
      ['Maybe', 0],
      ['so.', 0.3],
    ]);
    expect(header.visemes?.slice(0, 5).map((v) => v.viseme)).toEqual(['PP', 'aa', 'DD', 'PP', 'E']);
    expect(header.visemes?.every((v) => v.end >= v.start)).toBe(true);
  });

  it('polly: a generative voice (no speech marks at Polly) is not asked for marks; its audio comes without visemes', async () => {
    const asked = voices.markTypes.length;
    const c = await connect(host, { avatarId: 'pollygen' });
    await c.next('ready');
    await c.ask('Maybe so.');
    const [frame] = await c.audioFrames(1);
    expect(voices.said.polly.at(-1)).toBe('Joanna/generative: Maybe so.');
    expect(voices.markTypes.length).toBe(asked);
    expect(frame!.header).not.toHaveProperty('visemes');
  });

  it('polly: a signature made with the wrong secret is refused by the stand-in; the user gets a notice and the text', async () => {
    const c = await connect(host, { avatarId: 'pollybad' });
    await c.next('ready');
    c.send({ type: 'user_text', text: 'Good evening.' });
    expect((await c.next('notice')).message).toMatch(/voice is not available/);
    expect((await c.next('assistant_done')).text).toBe('Good evening.');
    expect(server.logs.join('')).not.toContain('not-the-secret-0123456789');
  });
});

describe('context phrases reach the recognisers that take them', () => {
  it('Deepgram Nova-3: keyterm on the streaming connection', async () => {
    const c = await connect(host, { avatarId: 'nova3' });
    await c.next('ready');
    speak(c);
    await c.next('assistant_done');
    expect(deepgram.streamQueries.at(-1)!.getAll('keyterm')).toEqual(PHRASES);
  });

  it('Deepgram Nova-2: keywords', async () => {
    const c = await connect(host, { avatarId: 'nova2' });
    await c.next('ready');
    speak(c);
    await c.next('assistant_done');
    expect(deepgram.streamQueries.at(-1)!.getAll('keywords')).toEqual(PHRASES);
  });

  it('Google: speechContexts in the recognition config', async () => {
    const c = await connect(host, { avatarId: 'google' });
    await c.next('ready');
    speak(c);
    expect((await c.next('assistant_done')).text).toBe('book a table for two');
    expect(voices.googleConfigs.at(-1)).toMatchObject({ languageCode: 'en-GB', speechContexts: [{ phrases: PHRASES }] });
  });

  it('Azure: the phrase list of the fast transcription definition', async () => {
    const c = await connect(host, { avatarId: 'azurestt' });
    await c.next('ready');
    speak(c);
    expect((await c.next('assistant_done')).text).toBe('book a table for two');
    expect(voices.azureDefinitions.at(-1)).toEqual({ locales: ['en-GB'], phraseList: { phrases: PHRASES } });
  });
});

describe('additional STT languages reach the recognisers that take several', () => {
  it('Deepgram: the multilingual model instead of the primary language', async () => {
    const c = await connect(host, { avatarId: 'novamulti' });
    await c.next('ready');
    speak(c);
    await c.next('assistant_done');
    expect(deepgram.streamQueries.at(-1)!.get('language')).toBe('multi');
  });

  it('Google: alternativeLanguageCodes, at most three, beside the primary language', async () => {
    const c = await connect(host, { avatarId: 'googlemulti' });
    await c.next('ready');
    speak(c);
    await c.next('assistant_done');
    expect(voices.googleConfigs.at(-1)).toMatchObject({ languageCode: 'en-GB', alternativeLanguageCodes: ['fr-FR', 'de-DE', 'es-ES'] });
  });

  it('Azure: every language among the candidate locales', async () => {
    const c = await connect(host, { avatarId: 'azuremulti' });
    await c.next('ready');
    speak(c);
    await c.next('assistant_done');
    expect(voices.azureDefinitions.at(-1)).toMatchObject({ locales: ['en-GB', 'fr-FR'] });
  });
});
