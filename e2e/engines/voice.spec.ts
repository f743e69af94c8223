// Voice with server speech in Firefox ESR and WebKitGTK (issue 14's "every browser"): the user
// switches the mic on and speaks; the player's own capture (AudioWorklet, Silero VAD) streams the
// words over the socket; the OpenAI-audio stand-in receives them and "recognises" a sentence; the
// transcript shows as the user's message and the echo avatar answers aloud with moving lips.
// The words: neither engine's fake microphone can play a file (Firefox's
// media.navigator.streams.fake and WebKit's mock capture device both give a tone, which Silero
// rightly takes for no speech), so getUserMedia is fed, in the page, from fixtures/speech-16k.wav
// (espeak-ng's words) through an AudioContext; everything after the microphone is the player's.
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { echoAvatar } from '../support/player-avatar';
import { E2E_PORT } from '../support/ports';
import { SPEECH_STAND_IN } from '../support/stand-ins/speech';
import { audioRuns, greeted, messages, recordSpeech, startChat, tap } from './player-steps';

// Firefox without a sound device here: with the launcher's null sink its capture hears the fed
// words (Silero's start is marked) but never their end within 40 s, so the sentence never reaches
// the recogniser; not solved yet (decision 126). This file keeps checking that the mic says why it
// cannot listen there; the player spec taps Firefox's audio with the sink.
test.use({ soundSink: false });

const SPEECH_WAV = readFileSync(new URL('../fixtures/speech-16k.wav', import.meta.url)).toString('base64');
const HEARD = 'what is the weather like in the mountains today';

/** In the page: getUserMedia answers with the WAV's words in a loop (see the header). Replaced on
 *  MediaDevices' prototype, not on navigator.mediaDevices: in WebKitGTK a property set on that
 *  object was lost now and then under load (a failed run's page had used the real mock device: the
 *  microphone opened and listened, the feed never started), which fits WebKit dropping a DOM
 *  wrapper and its own properties in a garbage collection; a prototype is never collected. */
function feedMicrophoneFromWav(wavBase64: string): void {
  const bytes = Uint8Array.from(atob(wavBase64), (c) => c.charCodeAt(0));
  MediaDevices.prototype.getUserMedia = async () => {
    const context = new AudioContext();
    const source = context.createBufferSource();
    source.buffer = await context.decodeAudioData(bytes.buffer.slice(0));
    source.loop = true;
    const out = context.createMediaStreamDestination();
    source.connect(out);
    source.start();
    void context.resume();
    (window as unknown as { feed: AudioContext }).feed = context;
    return out.stream;
  };
}

test('the user speaks, the stand-in hears the words, the transcript shows and the avatar answers aloud with moving lips; without a sound device the mic says why it cannot listen', async ({
  ep,
  engine,
  request,
}) => {
  test.setTimeout(90_000);
  await request.post(`${SPEECH_STAND_IN}/_stand-in/transcript`, { data: { transcript: HEARD } });
  const heardBefore = ((await (await request.get(`${SPEECH_STAND_IN}/_stand-in/requests`)).json()) as { heard: unknown[] }).heard.length;
  const avatar = await echoAvatar(request, { name: 'Engine Voice' });
  await ep.goto(`http://127.0.0.1:${E2E_PORT}/avatar/${avatar.id}?token=${avatar.token}`);
  const player = await ep.player();
  await startChat(player);
  await greeted(player);
  await player.run(feedMicrophoneFromWav, SPEECH_WAV);
  const seen = await recordSpeech(player);

  const mic = () => player.run(() => document.querySelector('button[aria-label="Microphone"]')?.getAttribute('aria-pressed'));
  if (!(await audioRuns(player))) {
    // No sound device (headless Firefox here): the mic cannot capture, and says so.
    await player.click('button[aria-label="Microphone"]');
    await expect.poll(() => player.run(() => document.body.textContent ?? ''), { timeout: 15_000 }).toContain('cannot start its sound');
    await expect.poll(mic).toBe('false');
    await ep.screenshot(`test-results/screens/engines/${engine.name}-voice-no-sound-device.png`);
    return;
  }
  await player.click('button[aria-label="Microphone"]');
  await expect
    .poll(() => player.run(() => document.querySelector('button[aria-label="Microphone"]')?.getAttribute('aria-pressed')))
    .toBe('true');
  // The words reach the stand-in's recogniser as 16 kHz audio; its transcript is the user's message.
  await expect
    .poll(() => messages(player, 'user'), { timeout: 40_000 })
    .toContain(HEARD)
    .catch(async (err: Error) => {
      // What the page and the stand-in saw, for a failure under load that a quiet run never shows.
      const page = await player.run(() => ({
        marks: performance.getEntriesByType('mark').map((m) => `${m.name}@${Math.round(m.startTime)}`),
        now: Math.round(performance.now()),
        mic: document.querySelector('button[aria-label="Microphone"]')?.getAttribute('aria-pressed'),
        feed: (({ feed }) => feed && `${feed.state} at ${feed.currentTime.toFixed(1)} s`)(window as unknown as { feed?: AudioContext }),
        status: [...document.querySelectorAll('[role="status"],[role="alert"]')].map((e) => e.textContent),
        messages: [...document.querySelectorAll('.msg')].map((m) => `${m.className}: ${m.textContent}`),
      }));
      const standIn = await (await request.get(`${SPEECH_STAND_IN}/_stand-in/requests`)).json();
      throw new Error(`${err.message}\npage: ${JSON.stringify(page)}\nstand-in: ${JSON.stringify(standIn).slice(0, 2000)}`);
    });
  const heard = (
    (await (await request.get(`${SPEECH_STAND_IN}/_stand-in/requests`)).json()) as { heard: { pcmBytes: number; sampleRate: number }[] }
  ).heard.slice(heardBefore);
  expect(heard[0]!.sampleRate).toBe(16000);
  expect(heard[0]!.pcmBytes).toBeGreaterThan(32000);
  // The echo avatar answers: its words in the history, lips moving, and sound.
  await expect.poll(() => messages(player, 'assistant'), { timeout: 20_000 }).toContain(HEARD);
  await expect.poll(async () => (await seen()).visemes.filter((v) => v && v !== 'sil').length, { timeout: 20_000 }).toBeGreaterThan(3);
  await ep.screenshot(`test-results/screens/engines/${engine.name}-voice-answer.png`);
  expect((await tap(player))?.onsets.length ?? 0).toBeGreaterThan(0);
  // Silero ran (no loudness fallback).
  expect(await player.run(() => document.querySelector('[role="status"]')?.textContent ?? '')).not.toContain('cannot');
});
