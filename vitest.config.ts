import { defineConfig } from 'vitest/config';

// Vitest's default on a 2-core machine is one worker (cores − 1). VITEST_MAX_WORKERS raises it; not
// by default: measured in issue 16 at a load average of 23–26, six API files took 160 s with one
// worker and 209 s with three, two of them hitting their 60 s hook and 120 s test timeouts.
// `.ci/run` overlaps Vitest with the type check and the build instead.
const maxWorkers = process.env.VITEST_MAX_WORKERS ? Number(process.env.VITEST_MAX_WORKERS) : undefined;

export default defineConfig({
  test: {
    ...(maxWorkers ? { maxWorkers } : {}),
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom', setupFiles: ['src/test-setup.ts'] },
      },
      { test: { name: 'player', root: 'apps/player', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom' } },
    ],
  },
});
