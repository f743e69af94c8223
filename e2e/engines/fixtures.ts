// Playwright Test as the runner, the engine as a worker fixture: each project (firefox, webkit)
// launches its browser once per worker; each test gets a fresh page. Playwright's own `page` and
// `browser` fixtures are never used here (they would launch Chromium).
import { test as base } from '@playwright/test';
import { launchEngine, type Engine, type EngineName } from './browsers';
import type { EnginePage } from './engine-page';

export const test = base.extend<{ ep: EnginePage }, { engineName: EngineName; soundSink: boolean; engine: Engine }>({
  engineName: ['firefox', { option: true, scope: 'worker' }],
  // Firefox with a PulseAudio null sink (its audio runs and is tapped); false: no sound device.
  soundSink: [true, { option: true, scope: 'worker' }],
  engine: [
    async ({ engineName, soundSink }, use) => {
      const engine = await launchEngine(engineName, { soundSink });
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
