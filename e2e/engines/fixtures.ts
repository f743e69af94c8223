// Playwright Test as the runner, the engine as a worker fixture: each project (firefox, webkit)
// launches its browser once per worker; each test gets a fresh page. Playwright's own `page` and
// `browser` fixtures are never used here (they would launch Chromium).
import { test as base } from '@playwright/test';
import { launchEngine, type Engine, type EngineName } from './browsers';
import type { EnginePage } from './engine-page';

export const test = base.extend<{ ep: EnginePage }, { engineName: EngineName; engine: Engine }>({
  engineName: ['firefox', { option: true, scope: 'worker' }],
  engine: [
    async ({ engineName }, use) => {
      const engine = await launchEngine(engineName);
      await use(engine);
      await engine.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  ep: async ({ engine }, use) => {
    const page = await engine.newPage();
    await use(page);
    await page.close().catch(() => undefined);
  },
});

export { expect } from '@playwright/test';
