// Every spec's `test`: Playwright's, with one automatic fixture that closes, at the end of each
// test, the browser contexts the test opened itself (`browser.newContext()`, `browser.newPage()`).
// The browser is shared by the worker's tests: a context left open goes on running, and a player
// left talking in software WebGL took the CPU of every later test of its job (CI: the echo widget's
// lips drew one mouth shape in 30 s while a 3D avatar of an earlier spec went on rendering).
import { test as base } from '@playwright/test';

export const test = base.extend<{ closeOpenedContexts: void }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(
        browser
          .contexts()
          .filter((c) => !before.has(c))
          .map((c) => c.close().catch(() => undefined)),
      );
    },
    { auto: true },
  ],
});
