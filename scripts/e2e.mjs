// `npm run test:e2e` after the build: every Playwright spec, in jobs that run side by side.
// A job is one or more Playwright processes run one after another, each with its own server
// (fresh data directory, mail capture, stand-ins) on the job's ten ports (E2E_PORT + 10 × job,
// e2e/support/ports.ts), so no spec sees another job's data; each process writes to its own
// output folder (Playwright empties it at start).
// E2E_JOBS sets how many jobs run at once (default 3). The voice config (server speech, a fake
// microphone) and the cross-engine config (the player in Firefox ESR and WebKitGTK, e2e/engines)
// go first to one job; the main config's spec files are then dealt to the jobs by their time in
// a quiet serial run (e2e/spec-seconds.json; a new spec counts as 15 s), longest first to the
// least loaded job.
// `node scripts/e2e.mjs auth` runs only the spec files whose names contain one of the words.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const slots = Math.max(1, Number(process.env.E2E_JOBS ?? 3));
const basePort = Number(process.env.E2E_PORT ?? 8181);
const only = process.argv.slice(2);
const wanted = (file) => only.length === 0 || only.some((w) => file.includes(w));

/** @type {Record<string, number>} */
const seconds = JSON.parse(readFileSync('e2e/spec-seconds.json', 'utf8'));
/** @typedef {{ name: string, args: string[] }} Run */
/** @type {{ runs: Run[], files: string[], load: number }[]} */
const jobs = Array.from({ length: slots }, () => ({ runs: [], files: [], load: 0 }));
const least = () => jobs.reduce((a, b) => (b.load < a.load ? b : a));
for (const [config, name, on] of [
  ['playwright.voice.config.ts', 'voice', wanted('voice.spec.ts')],
  ['playwright.engines.config.ts', 'Firefox ESR and WebKitGTK', wanted('engines/')],
]) {
  if (!on) continue;
  const job = least();
  job.runs.push({ name, args: ['-c', `e2e/${config}`] });
  job.load += seconds[config] ?? 60;
}
const specs = readdirSync('e2e')
  .filter((f) => f.endsWith('.spec.ts') && !f.startsWith('voice') && wanted(f))
  .sort((a, b) => (seconds[b] ?? 15) - (seconds[a] ?? 15));
for (const f of specs) {
  const job = least();
  job.files.push(`e2e/${f}`);
  job.load += seconds[f] ?? 15;
}
for (const job of jobs)
  if (job.files.length)
    job.runs.unshift({ name: `main (${job.files.length} files)`, args: ['-c', 'e2e/playwright.config.ts', ...job.files] });

const started = Date.now();
const busy = jobs.filter((job) => job.runs.length > 0);
const results = (
  await Promise.all(
    busy.map(async (job, i) => {
      const done = [];
      for (const [k, r] of job.runs.entries())
        done.push(
          await run({ ...r, name: `job ${i + 1} (~${job.load} s): ${r.name}` }, basePort + 10 * i, `test-results/pw-${i + 1}-${k + 1}`),
        );
      return done;
    }),
  )
).flat();
for (const r of results) process.stdout.write(`\n===== ${r.name}: exit ${r.code} in ${r.seconds} s\n${r.output}`);
for (const r of results) process.stdout.write(`   ${r.name}: ${r.seconds} s (exit ${r.code})\n`);
// Tests that passed only on a retry (E2E_RETRIES): Playwright lists them after "N flaky".
const flaky = results.flatMap((r) => {
  const at = r.output.search(/^\s+\d+ flaky$/m);
  if (at < 0) return [];
  return r.output
    .slice(at)
    .split('\n')
    .slice(1)
    .filter((l) => /^\s+(\[\w+\] › )?e2e\//.test(l))
    .map((l) => l.replace(/\s*─+$/, '').trim());
});
if (flaky.length) process.stdout.write(`FLAKY (passed on a retry; fix like a failure):\n${flaky.map((f) => `   ${f}\n`).join('')}`);
process.stdout.write(`e2e: ${Math.round((Date.now() - started) / 1000)} s in all\n`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);

/** One Playwright process; its output is kept and printed whole at the end, so shards do not interleave. */
function run(job, port, outputDir) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn('npx', ['playwright', 'test', ...job.args], {
      env: { ...process.env, E2E_PORT: String(port), E2E_OUTPUT_DIR: outputDir, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      resolve({ name: job.name, code: code ?? 1, seconds: Math.round((Date.now() - t0) / 1000), output });
    });
  });
}
