// `npm run test:e2e` after the build: every Playwright spec, in shards that run side by side.
// Each shard is its own Playwright process with its own server (fresh data directory, mail
// capture, stand-ins) on its own ports (E2E_PORT, +40 per shard), so no spec sees another
// shard's data; each writes to its own output folder (Playwright empties it at start).
// E2E_SHARDS sets how many shards of the main config run at once (default 2); spec files are
// dealt to shards by their time in a quiet serial run (e2e/spec-seconds.json; a new spec counts
// as 15 s), longest first to the least loaded shard. The voice config (server speech, a fake
// microphone) and the cross-engine config (the player in Firefox ESR and WebKitGTK, e2e/engines)
// run as two more jobs beside them.
// `node scripts/e2e.mjs auth` runs only the spec files whose names contain one of the words.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const shards = Math.max(1, Number(process.env.E2E_SHARDS ?? 2));
const basePort = Number(process.env.E2E_PORT ?? 8181);
const only = process.argv.slice(2);
const wanted = (file) => only.length === 0 || only.some((w) => file.includes(w));

/** @type {Record<string, number>} */
const seconds = JSON.parse(readFileSync('e2e/spec-seconds.json', 'utf8'));
const specs = readdirSync('e2e')
  .filter((f) => f.endsWith('.spec.ts') && !f.startsWith('voice') && wanted(f))
  .sort((a, b) => (seconds[b] ?? 15) - (seconds[a] ?? 15));
const deal = Array.from({ length: shards }, () => ({ files: /** @type {string[]} */ ([]), load: 0 }));
for (const f of specs) {
  const least = deal.reduce((a, b) => (b.load < a.load ? b : a));
  least.files.push(`e2e/${f}`);
  least.load += seconds[f] ?? 15;
}

/** @type {{ name: string, args: string[] }[]} */
const jobs = deal
  .filter((d) => d.files.length > 0)
  .map((d, i) => ({ name: `main ${i + 1}/${shards} (~${d.load} s)`, args: ['-c', 'e2e/playwright.config.ts', ...d.files] }));
if (wanted('voice.spec.ts')) jobs.push({ name: 'voice', args: ['-c', 'e2e/playwright.voice.config.ts'] });
if (wanted('engines/')) jobs.push({ name: 'Firefox ESR and WebKitGTK', args: ['-c', 'e2e/playwright.engines.config.ts'] });

const started = Date.now();
const results = await Promise.all(jobs.map((job, i) => run(job, basePort + 40 * i, `test-results/pw-${i + 1}`)));
for (const r of results) process.stdout.write(`\n===== ${r.name}: exit ${r.code} in ${r.seconds} s\n${r.output}`);
for (const r of results) process.stdout.write(`   ${r.name}: ${r.seconds} s (exit ${r.code})\n`);
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
