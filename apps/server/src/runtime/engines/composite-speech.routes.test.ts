// One speech path for every Composite engine (decision 612): for Echo, LLM, REST and Dialogflow
// ES/CX, microphone audio as binary frames → the STT stand-in received it → the brain answered
// → the TTS stand-in was asked → binary audio frames with word timings reached the socket.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness';
import { createCustomer } from '../../../test/accounts';
import { closeAll, connect, listen, testAvatars } from '../../../test/conversation-client';
import { startOpenAiStandIn, STAND_IN_KEY, type OpenAiStandIn } from '../../../test/stand-ins/runtime/openai';
import { REST_KEY, startRestStandIn, type RestStandIn } from '../../../test/stand-ins/runtime/rest-endpoint';
import { startGoogleStandIn, type GoogleStandIn } from '../../../test/stand-ins/runtime/google';
import { DEEPGRAM_KEY, ELEVEN_KEY, startSpeechStandIn, type SpeechStandIn } from '../../../test/stand-ins/runtime/speech';
import { DEFAULT_TURN_SETTINGS, type BrainConfig, type SpeechConfig } from '../types';
import { parseServiceAccount } from './google-auth';

let server: TestServer;
let host: string;
let openai: OpenAiStandIn;
let rest: RestStandIn;
let google: GoogleStandIn;
let speech: SpeechStandIn;

const HEARD = 'what are your opening hours';
const ANSWERS: Record<string, string> = {
  echo: HEARD,
  llm: `You asked: ${HEARD}`,
  rest: `REST says: ${HEARD}`,
  dialogflow_es: `ES proj-es answers: ${HEARD}`,
  dialogflow_cx: `CX agent-7 in europe-west1 answers: ${HEARD}`,
};

beforeAll(async () => {
  [openai, rest, google, speech] = await Promise.all([
    startOpenAiStandIn(),
    startRestStandIn(),
    startGoogleStandIn(),
    startSpeechStandIn(),
  ]);
  server = await createTestServer({ OUTBOUND_ALLOW: [openai, rest, google, speech].map((s) => s.allow).join(',') });
  host = await listen(server);
  const alice = await createCustomer(server, 'composite');
  const sa = parseServiceAccount(google.keyFile);
  const voice: SpeechConfig = {
    stt: { provider: 'deepgram', apiBase: speech.url, apiKey: DEEPGRAM_KEY, language: 'en-US' },
    tts: { provider: 'elevenlabs', apiBase: speech.url, apiKey: ELEVEN_KEY, voiceId: 'voice-1' },
    turn: { ...DEFAULT_TURN_SETTINGS, minEndpointingDelay: 0.05 },
  };
  const brains: Record<string, BrainConfig> = {
    echo: { kind: 'echo' },
    llm: {
      kind: 'llm',
      baseUrl: `${openai.url}/v1`,
      apiKey: STAND_IN_KEY,
      model: 'm',
      instructions: '',
      memory: '',
      sendHistory: true,
      tools: [],
    },
    rest: { kind: 'rest', url: `${rest.url}/hook`, apiKey: REST_KEY },
    dialogflow_es: { kind: 'dialogflow_es', projectId: 'proj-es', serviceAccount: sa, language: 'en', apiBase: google.url },
    dialogflow_cx: {
      kind: 'dialogflow_cx',
      projectId: 'proj-cx',
      agentId: 'agent-7',
      regionId: 'europe-west1',
      serviceAccount: sa,
      language: 'en',
      apiBase: google.url,
    },
  };
  testAvatars(
    server,
    Object.fromEntries(Object.entries(brains).map(([id, brain]) => [id, { ownerId: alice.id, engine: { ...brain, speech: voice } }])),
  );
});

afterEach(async () => {
  await closeAll();
});

afterAll(async () => {
  await server.close();
  await Promise.all([openai, rest, google, speech].map((s) => s.close()));
});

describe('every Composite engine speaks through the STT and TTS of its Brain tab', () => {
  for (const engine of Object.keys(ANSWERS)) {
    it(`${engine}: audio in → Deepgram heard it → the brain answered → ElevenLabs spoke it → binary frames with word timings`, async () => {
      const c = await connect(host, { avatarId: engine });
      expect(await c.next('ready')).toMatchObject({ listen: 'server', audio: true });
      const streamed = speech.streamedBytes;
      const spoken = speech.requests.filter((r) => r.path.endsWith('/with-timestamps')).length;
      c.send({ type: 'user_speech', event: 'start', at: 0 });
      for (let i = 0; i < 4; i++) c.sendBinary(Buffer.alloc(4000, i + 1));
      c.send({ type: 'user_speech', event: 'end', at: 500 });
      expect(await c.next('transcript', (m) => !m.final)).toMatchObject({ text: 'what are' });
      expect((await c.next('transcript', (m) => m.final)).text).toBe(HEARD);
      const done = await c.next('assistant_done');
      expect(done.text).toBe(ANSWERS[engine]);
      expect(speech.streamedBytes - streamed).toBe(16000);
      const tts = speech.requests.filter((r) => r.path.endsWith('/with-timestamps'));
      expect(tts.length).toBe(spoken + 1);
      expect(tts.at(-1)!.json().text).toBe(ANSWERS[engine]);
      const [frame] = await c.audioFrames(1);
      expect(frame!.header).toMatchObject({ turnId: done.turnId, format: 'pcm16', sampleRate: 16000 });
      expect(frame!.header.words?.map((w) => w.word).join(' ')).toBe(ANSWERS[engine]);
    });
  }

  it('hears a short utterance whose streaming socket opens after the endpointing delay (0.5 s)', async () => {
    // A loaded host (or a far Deepgram) took longer to connect than the user took to finish:
    // the turn's audio was dropped before it could be sent, and nothing was heard.
    speech.upgradeDelayMs = 900;
    try {
      const c = await connect(host, { avatarId: 'echo' });
      await c.next('ready');
      const streamed = speech.streamedBytes;
      c.send({ type: 'user_speech', event: 'start', at: 0 });
      for (let i = 0; i < 4; i++) c.sendBinary(Buffer.alloc(4000, i + 1));
      c.send({ type: 'user_speech', event: 'end', at: 500 });
      expect((await c.next('transcript', (m) => m.final)).text).toBe(HEARD);
      expect((await c.next('assistant_done')).text).toBe(ANSWERS.echo);
      expect(speech.streamedBytes - streamed).toBe(16000);
    } finally {
      speech.upgradeDelayMs = 0;
    }
  });
});
