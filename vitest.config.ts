import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// Vitest's default on a 2-core machine is one worker (cores − 1). VITEST_MAX_WORKERS raises it; not
// by default: measured in issue 16 at a load average of 23–26, six API files took 160 s with one
// worker and 209 s with three, two of them hitting their 60 s hook and 120 s test timeouts.
// Tried again with two workers per Vitest chain in `.ci/run` (decision 903, run C): on the shared
// machine the PGlite chain went from 562 s to 858 s and eight UI tests hit their 5 s timeout.
const maxWorkers = process.env.VITEST_MAX_WORKERS ? Number(process.env.VITEST_MAX_WORKERS) : undefined;

// The API suite's second pass on PostgreSQL (TEST_DATABASE_URL) runs only the server test files
// that open a database: a file that never does (the function sandbox, request signing, the lint
// rules...) runs the same code on both passes, and the PGlite pass has run it already.
const OPENS_A_DATABASE =
  /harness|createTestServer|openDatabase|TEST_DATABASE_URL|avatar-requests|knowledge-requests|knowledge-collection|\/world|conversation-client|stand-ins/;
function databaseFreeFiles(root: string): string[] {
  return ['src', 'test'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => join(dir, f))
      .filter((f) => !OPENS_A_DATABASE.test(readFileSync(join(root, f), 'utf8'))),
  );
}
const serverExclude = process.env.TEST_DATABASE_URL ? databaseFreeFiles(join(import.meta.dirname, 'apps/server')) : [];

// CI's first stage splits the PGlite pass of the server files between two chains (.ci/run,
// decision 903): VITEST_SERVER_PART=attack runs the attack files but five heavy ones (they run
// after the checks and the build), VITEST_SERVER_PART=rest every other server file. The one list
// decides both, so together they are every file. The five are chosen so both chains end together.
const IN_THE_REST = ['crash.test.ts', 'document-bombs.test.ts', 'ssrf.test.ts', 'admin-password.test.ts', 'bad-input-all.test.ts'];
const BESIDE_THE_CHECKS = readdirSync(join(import.meta.dirname, 'apps/server/test/attack'))
  .filter((f) => f.endsWith('.test.ts') && !IN_THE_REST.includes(f))
  .map((f) => `test/attack/${f}`);
const serverPart = process.env.VITEST_SERVER_PART;
const serverInclude = serverPart === 'attack' ? BESIDE_THE_CHECKS : ['src/**/*.test.ts', 'test/**/*.test.ts'];
if (serverPart === 'rest') serverExclude.push(...BESIDE_THE_CHECKS);

// Files share their worker's module cache (isolate: false, decision 903): each file no longer
// starts a process, imports the app and compiles PGlite's WebAssembly again. Measured on 15 server
// files: 129 s wall and 86 s of CPU isolated, 56 s and 41 s shared; the 50 UI files 111 s / 87 s
// against 54 s / 34 s. Test files keep no state at module level that another file reads.
const isolate = false;

export default defineConfig({
  test: {
    ...(maxWorkers ? { maxWorkers } : {}),
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'], environment: 'node', isolate } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: serverInclude,
          exclude: [...configDefaults.exclude, ...serverExclude],
          environment: 'node',
          isolate,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/test-setup.ts'],
          isolate,
        },
      },
      { test: { name: 'player', root: 'apps/player', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom', isolate } },
    ],
  },
});
