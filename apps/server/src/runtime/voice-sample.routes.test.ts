// Issue 35 item 2: the Brain tab's "Play sample" is real audio of the server's embedded voice (the
// worker pool visitors hear), for signed-in customers only; every catalogue face has a built-in
// voice of its gender by default, and of its accent where Flite has one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedVoiceFor, PREVIEW_SPEECH_MAX_CHARS, type PreviewSpeech } from '@parla/shared/embedded-voices';
import type { PipelineConfig } from '@parla/shared/schemas/avatar';
import { createTestServer, type TestServer } from '../../test/harness';
import { createCustomer, type TestAccount } from '../../test/accounts';
import { SpeechConfigMapper } from './speech-config';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await createTestServer({ EMBEDDED_VOICE_WORKERS: '1' });
  alice = await createCustomer(server, 'voice-sample');
});
afterAll(() => server.close());

/** The loudest sample of a 16-bit mono WAV's data, 0..1. */
function peak(wav: Buffer): number {
  let max = 0;
  for (let i = 44; i + 1 < wav.length; i += 2) max = Math.max(max, Math.abs(wav.readInt16LE(i)));
  return max / 32768;
}

describe('GET /api/tts/embedded_sample/:voice', () => {
  it('answers a few seconds of the voice as a WAV that is not silence, and the same bytes the second time', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/tts/embedded_sample/rms', token: alice.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    const wav = res.rawPayload;
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(16000);
    const seconds = (wav.length - 44) / 2 / 16000;
    expect(seconds).toBeGreaterThan(2);
    expect(seconds).toBeLessThan(10);
    expect(peak(wav)).toBeGreaterThan(0.1);
    const again = await server.inject({ method: 'GET', url: '/api/tts/embedded_sample/rms', token: alice.token });
    expect(again.rawPayload.equals(wav)).toBe(true);
  });

  it('refuses a visitor without a session, and names an unknown voice as invalid instead of failing', async () => {
    expect((await server.inject({ method: 'GET', url: '/api/tts/embedded_sample/slt' })).statusCode).toBe(401);
    const bad = await server.inject({ method: 'GET', url: '/api/tts/embedded_sample/..%2Fetc', token: alice.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Unknown built-in voice.');
  });
});

describe('POST /api/tts/preview', () => {
  it("says the editor's text in the voice asked for, with the mouth shapes and words of its own phonemes", async () => {
    const res = await server.inject({
      method: 'POST',
      url: '/api/tts/preview',
      token: alice.token,
      payload: { voice: 'slt', text: 'Hello there, nice to meet you.' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const speech = res.json() as PreviewSpeech;
    expect(speech).toMatchObject({ format: 'pcm16', sampleRate: 16000 });
    const pcm = Buffer.from(speech.audio, 'base64');
    expect(pcm.length / 2 / 16000).toBeGreaterThan(1);
    expect(speech.words?.map((w) => w.word)).toEqual(['Hello', 'there', 'nice', 'to', 'meet', 'you']);
    expect(new Set(speech.visemes?.map((v) => v.viseme)).size).toBeGreaterThan(4);
  });

  it('refuses a visitor, an unknown voice, an empty text and one too long, each with its reason', async () => {
    const post = (payload: unknown, token: string | undefined = alice.token) =>
      server.inject({ method: 'POST', url: '/api/tts/preview', ...(token ? { token } : {}), payload: payload as object });
    expect((await post({ voice: 'slt', text: 'Hi.' }, '')).statusCode).toBe(401);
    for (const [payload, message] of [
      [{ voice: 'espeak', text: 'Hi.' }, 'Unknown built-in voice.'],
      [{ voice: 'slt', text: '   ' }, 'A text is required.'],
      [
        { voice: 'slt', text: 'a'.repeat(PREVIEW_SPEECH_MAX_CHARS + 1) },
        `At most ${PREVIEW_SPEECH_MAX_CHARS} characters are said at once.`,
      ],
      [{ voice: 'slt' }, 'A text is required.'],
    ] as const) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body).toContain(message);
    }
  });
});

describe('the default built-in voice of every catalogue face', () => {
  it('is of its gender for every face of the catalogue, and British English men get the Scottish voice', async () => {
    const mapper = new SpeechConfigMapper(
      { SPEECH_STT_MODEL: 'w', SPEECH_TTS_MODEL: 't', SPEECH_TTS_VOICE: 'v', EMBEDDED_VOICE: true },
      (u) => u,
    );
    const cat = await server.inject({ method: 'GET', url: '/api/catalogue/avatars' });
    const faces = cat.json().avatars as { id: string; voiceGender: string }[];
    expect(faces.length).toBeGreaterThan(5);
    const brain = await server.inject({ method: 'GET', url: '/api/brain/catalogue', token: alice.token });
    const voices = brain.json().defaultVoices as { id: string; gender: string }[];
    for (const face of faces) {
      for (const language of ['en-US', 'en-GB']) {
        // A new avatar's Brain tab saves "Default" with the browser voice Ava: the face decides.
        const p = { stt: { provider: 'default', languages: language }, tts: { provider: 'default', voice_id: 'parla-en-US-female' } };
        const tts = mapper.speech(false, p as PipelineConfig, face.voiceGender)?.tts;
        expect(tts, face.id).toMatchObject({ provider: 'embedded', voiceId: embeddedVoiceFor(face.voiceGender, language) });
        const gender = voices.find((v) => v.id === tts?.voiceId)?.gender;
        expect(gender, `${face.id} in ${language}`).toBe(face.voiceGender === 'male' ? 'Male' : 'Female');
      }
    }
    expect(embeddedVoiceFor('male', 'en-GB')).toBe('awb');
    expect(embeddedVoiceFor('male', 'en-US')).toBe('rms');
    expect(embeddedVoiceFor('female', 'en-GB')).toBe('slt');
  });
});
