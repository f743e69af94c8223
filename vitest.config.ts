import { defineConfig } from 'vitest/config';

// Vitest's default on this 2-core machine is one worker (cores − 1): the API suite ran one file at
// a time while most of each file waits on sockets, timers and child processes. Three workers
// (VITEST_MAX_WORKERS to change it) keep both cores busy (issue 16; figures in docs/deploy.md's
// CI section).
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS ?? 3);

export default defineConfig({
  test: {
    maxWorkers,
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
