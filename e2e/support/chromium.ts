// The two Chromium binaries of the end-to-end tests (decision 903), both Debian's Chromium 150:
// - CHROMIUM, the browser visitors run (its headless mode): the player's specs, the voice specs
//   and whatever relies on the browser's own speech recognition, media and WebGL;
// - HEADLESS_SHELL, chromium-headless-shell (.ci/run installs it), the same Blink and V8 without
//   the desktop browser's layer, the headless build Playwright itself runs by default: the
//   portal's specs. Four of them, three jobs side by side as in CI, took 0.92 of the wall time
//   they took in CHROMIUM (62 s against 68), the processes that end with the run 0.77 of the
//   CPU time. Its speech recognition never starts (no start, no error, no end), which is
//   why the player's specs stay in CHROMIUM. Where it is not installed, every spec runs there.
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

const SHELL = '/usr/bin/chromium-headless-shell';
export const HEADLESS_SHELL = existsSync(SHELL) ? SHELL : CHROMIUM;
