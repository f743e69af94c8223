// CI's Vitest runs (.ci/run): `node scripts/vitest-once-more.mjs <vitest run's arguments>` runs
// `vitest run` with them, and when test files fail, runs those files once more with the same
// arguments and environment, as the end-to-end stage tries a failed test once more
// (E2E_RETRIES=1). A file that passes then is listed as FLAKY (fix it like a failure); one that
// fails again fails the run. A run that failed with no failed file (an error outside the tests, a
// crash) is not tried again. The failed files come from Vitest's JSON report, not its console text.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const args = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'vitest-once-more-'));

/** Runs Vitest with the console reporter and a JSON report; answers its exit and failed files. */
function run(extra, name) {
  const report = join(dir, `${name}.json`);
  const rc =
    spawnSync(
      process.execPath,
      [VITEST, 'run', ...args, ...extra, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
      {
        stdio: 'inherit',
      },
    ).status ?? 1;
  let failed = [];
  try {
    /** @type {{ testResults: { name: string, status: string }[] }} */
    const json = JSON.parse(readFileSync(report, 'utf8'));
    failed = json.testResults.filter((t) => t.status === 'failed').map((t) => relative(process.cwd(), t.name));
  } catch {
    // No report: Vitest stopped before writing it; nothing to try again.
  }
  return { rc, failed };
}

const first = run([], 'first');
let rc = first.rc;
if (rc !== 0 && first.failed.length > 0) {
  process.stdout.write(`\nFAILED, trying these files once more:\n${first.failed.map((f) => `   ${f}\n`).join('')}`);
  const again = run(first.failed, 'again');
  rc = again.rc;
  const flaky = first.failed.filter((f) => !again.failed.includes(f));
  if (rc === 0 && flaky.length)
    process.stdout.write(`FLAKY (passed on a retry; fix like a failure):\n${flaky.map((f) => `   ${f}\n`).join('')}`);
  if (rc !== 0)
    process.stdout.write(`FAILED (every try):\n${again.failed.map((f) => `   ${f}\n`).join('') || '   (no file: see above)\n'}`);
}
rmSync(dir, { recursive: true, force: true });
process.exit(rc);
