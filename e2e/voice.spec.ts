// Server speech end to end (issue 14), in Debian's Chromium with a fake microphone playing
// fixtures/speech-16k.wav (espeak-ng's "Hello avatar, please tell me something nice about the
// weather today.", then 4 s of silence, in a loop) — run by playwright.voice.config.ts, whose
// server listens and speaks through the OpenAI-audio stand-in. The user switches the mic on; the
// player's Silero VAD streams the words as binary frames; the stand-in "recognises" a sentence;
// the echo avatar says it back; the reply's audio plays (the page's analyser hears it) and
// moves the lips; the next loop of the words, spoken over the long reply, stops it at once
// (speakingEnded interrupted to the host page).
import type { Server } from 'node:http';
import { expect, type Frame, type Page } from '@playwright/test';
import { test } from './support/test';
import { audioTap, installAudioTap, listeningMarks, vadMarks } from './support/audio-tap';
import { echoAvatar } from './support/player-avatar';
import { E2E_PORT, HOST_PAGE_PORT } from './support/ports';
import { SPEECH_STAND_IN } from './support/stand-ins/speech';
import { hostEvents, hostPageHtml, serveHostPage } from './support/host-page';

const SHOTS = 'test-results/screens';
const HOST_PORT = HOST_PAGE_PORT;
/** What the stand-in recognises: long enough (60 ms of tone per character) that the next loop
 *  of the fake microphone's words comes while the avatar still speaks. */
const HEARD = 'tell me a long story about the sea, the mountains, the rivers and the bright sky above all of us';
let host: Server;

const HOST_PAGE = hostPageHtml(['connected', 'speakingStarted', 'speakingEnded', 'userText', 'error']);

test.beforeAll(async () => {
  host = await serveHostPage(HOST_PORT, HOST_PAGE);
});
test.afterAll(() => host.close());

const named = async (page: Page, name: string) => (await hostEvents(page)).filter((e) => e.event === name);

async function visemes(frame: Frame): Promise<() => Promise<string[]>> {
  await frame.getByTestId('avatar-face').evaluate((face) => {
    const seen: string[] = [];
    (window as unknown as { visemes: string[] }).visemes = seen;
    new MutationObserver(() => seen.push((face as HTMLElement).dataset.viseme ?? '')).observe(face, {
      attributes: true,
      attributeFilter: ['data-viseme'],
    });
  });
  return () => frame.getByTestId('avatar-face').evaluate(() => (window as unknown as { visemes: string[] }).visemes);
}

test('the user speaks, the server hears it, the avatar answers aloud with moving lips, and speaking over it stops it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await request.post(`${SPEECH_STAND_IN}/_stand-in/transcript`, { data: { transcript: HEARD } });
  const heardBefore = ((await (await request.get(`${SPEECH_STAND_IN}/_stand-in/requests`)).json()) as { heard: unknown[] }).heard.length;
  const avatar = await echoAvatar(request, { name: 'Voice' });
  await page.addInitScript(installAudioTap);
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));

  const src = `http://127.0.0.1:${E2E_PORT}/avatar/${avatar.id}?token=${avatar.token}&connect=true`;
  await page.goto(`http://127.0.0.1:${HOST_PORT}/?src=${encodeURIComponent(src)}`);
  await expect.poll(async () => (await named(page, 'connected')).length, { timeout: 30_000 }).toBe(1);
  const frame = page.frames().find((f) => f.url().includes('/avatar/'))!;
  await expect(frame.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const seen = await visemes(frame);
  const history = frame.getByRole('log', { name: 'Chat history' });

  // The mic streams to the server (ready.listen 'server'): Silero runs, no fallback.
  const mic = frame.getByRole('button', { name: 'Microphone' });
  await mic.click();
  await expect(mic).toHaveAttribute('aria-pressed', 'true');

  // The words reach the stand-in's recogniser; its transcript shows as the user's message. The
  // fake microphone loops the words: on a loaded machine the detector can work through buffered
  // audio late and two loops (and their replies) show at once, so the first of each is checked.
  await expect(history.locator('.msg.user', { hasText: HEARD }).first()).toBeVisible({ timeout: 30_000 });
  const heard = (
    (await (await request.get(`${SPEECH_STAND_IN}/_stand-in/requests`)).json()) as { heard: { pcmBytes: number; sampleRate: number }[] }
  ).heard.slice(heardBefore);
  expect(heard[0]!.sampleRate).toBe(16000);
  // At least a second of the spoken words, prefix padding included.
  expect(heard[0]!.pcmBytes).toBeGreaterThan(32000);
  expect((await vadMarks(frame)).ends.length).toBeGreaterThan(0);

  // The echo avatar answers aloud: the analyser hears its audio, and the lips move.
  await expect(history.locator('.msg.assistant', { hasText: HEARD }).first()).toBeVisible({ timeout: 20_000 });
  await expect.poll(async () => (await audioTap(frame)).onsets.length, { timeout: 20_000 }).toBeGreaterThan(0);
  await expect.poll(async () => (await named(page, 'speakingStarted')).length, { timeout: 10_000 }).toBeGreaterThan(0);
  await expect.poll(async () => (await seen()).filter((v) => v && v !== 'sil').length, { timeout: 10_000 }).toBeGreaterThan(5);
  await page.screenshot({ path: `${SHOTS}/voice-speaking.png` });

  // The next loop of the words comes over the reply: the server interrupts, the audio and the
  // lips stop, and the host page hears speakingEnded {interrupted: true}.
  await expect
    .poll(async () => (await named(page, 'speakingEnded')).filter((e) => e.data?.interrupted === true).length, { timeout: 30_000 })
    .toBeGreaterThan(0);
  const tap = await audioTap(frame);
  expect(tap.stops.length).toBeGreaterThan(0);
  await expect(frame.getByTestId('avatar-face')).toHaveAttribute('data-viseme', 'sil');
  expect(logs.filter((l) => l.includes('Silero voice detector cannot run'))).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/voice-interrupted.png` });
});

test('words said while the voice detector still loads are heard from their start', async ({ page, request }) => {
  test.setTimeout(120_000);
  await request.post(`${SPEECH_STAND_IN}/_stand-in/transcript`, { data: { transcript: HEARD } });
  const heardBefore = ((await (await request.get(`${SPEECH_STAND_IN}/_stand-in/requests`)).json()) as { heard: unknown[] }).heard.length;
  const avatar = await echoAvatar(request, { name: 'Voice Early' });
  // A slow machine or network: the Silero model arrives 2.5 s after the microphone is granted,
  // while the fake microphone is already saying the sentence (0.5 s of silence, then about 4 s of
  // words, fixtures/make-speech-wav.ts). Before the fix the capture only started once the model
  // had loaded, and the first utterance heard was the sentence's last second or two.
  await page.route('**/*.onnx', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await route.continue();
  });
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  await page.goto(`http://127.0.0.1:${E2E_PORT}/avatar/${avatar.id}?token=${avatar.token}&connect=true`);
  await expect(page.getByTestId('stage')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Microphone' }).click();
  // The fake microphone loops the words every 8 s: on a loaded machine the detector can work
  // through the buffered audio late and both loops show at once, so the first is the one checked.
  // 60 s: under `npm run validate`'s three e2e jobs the detector took 14 s to load (vad-loaded
  // 19.4 s after the page began, the mic granted at 5.4 s) and the whole sentence, 4.9 s of it from
  // its start, reached the stand-in just as a 30 s wait ran out (2026-12-02).
  try {
    await expect(page.getByRole('log', { name: 'Chat history' }).locator('.msg.user', { hasText: HEARD }).first()).toBeVisible({
      timeout: 60_000,
    });
  } catch (err) {
    // Once on a loaded CI host (2026-11-30) nothing was heard in 30 s, the mic still on and no
    // notice shown: print how far listening got and what the stand-in received, for the next time.
    const got = (await (await request.get(`${SPEECH_STAND_IN}/_stand-in/requests`)).json()) as { heard: unknown[] };
    console.log(
      'voice-early diagnostics:',
      JSON.stringify({ marks: await listeningMarks(page.mainFrame()), heard: got.heard.slice(heardBefore), console: logs.slice(-30) }),
    );
    throw err;
  }
  const heard = (
    (await (await request.get(`${SPEECH_STAND_IN}/_stand-in/requests`)).json()) as { heard: { pcmBytes: number }[] }
  ).heard.slice(heardBefore);
  // The whole sentence in the first utterance: more than 3 s of 16 kHz PCM16.
  expect(heard[0]!.pcmBytes).toBeGreaterThan(3 * 32000);
});
