// The player in the two other browser engines of the brief (non-negotiable 6): Debian's Firefox
// ESR (puppeteer-core, WebDriver BiDi) and WebKitGTK (selenium-webdriver, WebKitWebDriver under
// Xvfb), with Playwright Test as the runner (engines/fixtures.ts; decision 120). One server for
// both projects, speaking and listening through the OpenAI-audio stand-in as the voice config's
// (E2E_SERVER_SPEECH=1), because neither engine has speech recognition.
//   npm run build && E2E_PORT=… npx playwright test -c e2e/playwright.engines.config.ts
// Needs: apt-get install -y firefox-esr webkit2gtk-driver xvfb (a missing one fails the run and
// names its package).
import { defineConfig } from '@playwright/test';
import base from './playwright.config';
import type { EngineName } from './engines/browsers';

const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
const webServer = Array.isArray(base.webServer) ? base.webServer[0]! : base.webServer!;

export default defineConfig<{ engineName: EngineName }>({
  ...base,
  testDir: './engines',
  testMatch: '*.spec.ts',
  testIgnore: [],
  use: { baseURL: base.use?.baseURL },
  projects: [
    { name: 'firefox', use: { engineName: 'firefox' } },
    { name: 'webkit', use: { engineName: 'webkit' } },
  ],
  webServer: { ...webServer, env: { ...env, E2E_SERVER_SPEECH: '1' } },
});
