// The voice specs (voice*.spec.ts, issue 14): the same run as playwright.config.ts, but the
// server speaks and listens through the OpenAI-audio stand-in (E2E_SERVER_SPEECH=1 →
// SPEECH_BASE_URL, support/stand-ins/speech.ts) and Chromium's fake microphone plays
// fixtures/speech-16k.wav (spoken words made with espeak-ng, fixtures/make-speech-wav.ts) in a
// loop. The main config leaves these specs out: other specs keep the browser's speech.
//   npm run build && E2E_PORT=… npx playwright test -c e2e/playwright.voice.config.ts
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export const SPEECH_WAV = fileURLToPath(new URL('./fixtures/speech-16k.wav', import.meta.url));
const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
const webServer = Array.isArray(base.webServer) ? base.webServer[0]! : base.webServer!;

export default defineConfig({
  ...base,
  testMatch: 'voice*.spec.ts',
  // The engines' own voice spec runs under playwright.engines.config.ts, in each of the three browsers.
  testIgnore: ['engines/**'],
  // One project, in the browser visitors run (base.use's CHROMIUM), not the main run's two.
  projects: undefined,
  use: {
    ...base.use,
    launchOptions: {
      ...base.use?.launchOptions,
      args: [...(base.use?.launchOptions?.args ?? []), `--use-file-for-fake-audio-capture=${SPEECH_WAV}`],
    },
  },
  webServer: { ...webServer, env: { ...env, E2E_SERVER_SPEECH: '1' } },
});
