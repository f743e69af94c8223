// `npm run test:e2e` after the build: every Playwright spec, in jobs that run side by side.
// A job is one or more Playwright processes run one after another, each with its own server
// (fresh data directory, mail capture, stand-ins) on the job's ten ports (E2E_PORT + 10 × job,
// e2e/support/ports.ts), so no spec sees another job's data; each process writes to its own
// output folder (Playwright empties it at start).
// E2E_JOBS sets how many jobs run at once (default 3). The voice config (server speech, a fake
// microphone), the cross-engine config (the player in Firefox ESR and WebKitGTK, e2e/engines) and
// the main config's spec files are dealt to the jobs by their seconds in an earlier CI run
// (e2e/spec-seconds.json; a new spec counts as 15 s), longest first to the job that would end
// first, a Playwright process's start counted too. Each run writes the seconds it measured to
// test-results/spec-seconds.json, to copy over e2e/spec-seconds.json when the deal has gone stale.
// `node scripts/e2e.mjs auth` runs only the spec files whose names contain one of the words.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { stripVTControlCharacters } from 'node:util';

const slots = Math.max(1, Number(process.env.E2E_JOBS ?? 3));
const basePort = Number(process.env.E2E_PORT ?? 8181);
const only = process.argv.slice(2);
const wanted = (file) => only.length === 0 || only.some((w) => file.includes(w));
/** Playwright's command, run by this Node (npx would start npm first in every job). */
const PLAYWRIGHT = createRequire(import.meta.url).resolve('@playwright/test/cli');
/** A Playwright process's own start under CI's load (its server, stand-ins and browser). */
const START_SECONDS = 15;

/** @type {Record<string, number>} */
const seconds = JSON.parse(readFileSync('e2e/spec-seconds.json', 'utf8'));
/** @typedef {{ name: string, args: string[], config: string }} Run */
/** @type {{ runs: Run[], files: string[], load: number }[]} */
const jobs = Array.from({ length: slots }, () => ({ runs: [], files: [], load: 0 }));
/** What is dealt: the two configs of their own (one run each) and the main config's spec files. */
const items = [
  ...[
    ['playwright.voice.config.ts', 'voice', wanted('voice.spec.ts')],
    ['playwright.engines.config.ts', 'Firefox ESR and WebKitGTK', wanted('engines/')],
  ]
    .filter(([, , on]) => on)
    .map(([config, name]) => ({ key: config, config, name })),
  ...readdirSync('e2e')
    .filter((f) => f.endsWith('.spec.ts') && !f.startsWith('voice') && wanted(f))
    .map((f) => ({ key: f, config: 'playwright.config.ts', name: '' })),
].sort((a, b) => (seconds[b.key] ?? 15) - (seconds[a.key] ?? 15));
for (const item of items) {
  const cost = (job) => job.load + (seconds[item.key] ?? 15) + (item.name || job.files.length === 0 ? START_SECONDS : 0);
  const job = jobs.reduce((a, b) => (cost(b) < cost(a) ? b : a));
  job.load = cost(job);
  if (item.name) job.runs.push({ name: item.name, args: ['-c', `e2e/${item.config}`], config: item.config });
  else job.files.push(`e2e/${item.key}`);
}
for (const job of jobs)
  if (job.files.length)
    job.runs.unshift({
      name: `main (${job.files.length} files)`,
      args: ['-c', 'e2e/playwright.config.ts', ...job.files],
      config: 'playwright.config.ts',
    });

const started = Date.now();
const busy = jobs.filter((job) => job.runs.length > 0);
const results = (
  await Promise.all(
    busy.map(async (job, i) => {
      const done = [];
      for (const [k, r] of job.runs.entries())
        done.push(
          await run(
            { ...r, name: `job ${i + 1} (~${Math.round(job.load)} s): ${r.name}` },
            basePort + 10 * i,
            `test-results/pw-${i + 1}-${k + 1}`,
          ),
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
printFailures(results);
writeMeasuredSeconds(results);
process.stdout.write(`e2e: ${Math.round((Date.now() - started) / 1000)} s in all\n`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);

/** One Playwright process; its output is kept and printed whole at the end, so shards do not interleave. */
function run(job, port, outputDir) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const report = `${process.cwd()}/${outputDir}.json`;
    const child = spawn(process.execPath, [PLAYWRIGHT, 'test', '--reporter=list,json', ...job.args], {
      env: {
        ...process.env,
        E2E_PORT: String(port),
        E2E_OUTPUT_DIR: outputDir,
        PLAYWRIGHT_JSON_OUTPUT_FILE: report,
        FORCE_COLOR: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      resolve({ name: job.name, config: job.config, report, code: code ?? 1, seconds: Math.round((Date.now() - t0) / 1000), output });
    });
  });
}

/** A run's JSON report (Playwright's), or null when it wrote none. */
function readReport(r) {
  return existsSync(r.report) ? JSON.parse(readFileSync(r.report, 'utf8')) : null;
}

/** Calls `fn(spec, test)` for every test of `suite` and of the suites inside it. */
function eachTest(suite, fn) {
  for (const spec of suite.specs ?? []) for (const test of spec.tests ?? []) fn(spec, test);
  for (const child of suite.suites ?? []) eachTest(child, fn);
}

/** An error's first lines, without colour codes. */
function firstLines(message, indent) {
  return stripVTControlCharacters(message)
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, 6)
    .join(`\n${indent}`);
}

/** Tests that failed every try, each with the first lines of each try's error, printed last: CI
 *  keeps only the end of the output, where a failure in an early job would otherwise be cut off. */
function printFailures(results) {
  const lines = [];
  for (const r of results) {
    if (r.code === 0) continue;
    const report = readReport(r);
    if (!report) {
      lines.push(`   ${r.name}: exit ${r.code} with no report; its output's end:\n${r.output.split('\n').slice(-15).join('\n')}`);
      continue;
    }
    const before = lines.length;
    for (const suite of report.suites ?? [])
      eachTest(suite, (spec, test) => {
        if (test.status !== 'unexpected') return;
        lines.push(`   ${r.name}: ${spec.file}:${spec.line} › ${spec.title}${test.projectName ? ` [${test.projectName}]` : ''}`);
        for (const [i, result] of (test.results ?? []).entries())
          lines.push(
            `      try ${i + 1} (${Math.round(result.duration / 1000)} s): ${firstLines(result.error?.message ?? result.status, '         ')}`,
          );
      });
    for (const error of report.errors ?? []) lines.push(`   ${r.name}: ${firstLines(error.message ?? '', '      ')}`);
    if (lines.length === before) lines.push(`   ${r.name}: exit ${r.code}, no failed test in its report`);
  }
  if (lines.length) process.stdout.write(`FAILED (every try):\n${lines.join('\n')}\n`);
}

/** The seconds each spec file's tests took in this run (every try; the main config by file, the
 *  other configs whole), beside the earlier ones for files this run did not run. */
function writeMeasuredSeconds(results) {
  /** @type {Record<string, number>} */
  const measured = {};
  const add = (key, s) => (measured[key] = (measured[key] ?? 0) + s);
  for (const r of results) {
    const report = readReport(r);
    if (!report) continue;
    for (const suite of report.suites ?? []) {
      const key = r.config === 'playwright.config.ts' ? suite.file.replace(/^.*\//, '') : r.config;
      eachTest(suite, (_spec, test) => {
        for (const result of test.results ?? []) add(key, result.duration / 1000);
      });
    }
  }
  const merged = { ...seconds, ...Object.fromEntries(Object.entries(measured).map(([k, v]) => [k, Math.round(v)])) };
  const sorted = Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((k) => [k, merged[k]]),
  );
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/spec-seconds.json', `${JSON.stringify(sorted, null, 2)}\n`);
  process.stdout.write('seconds per spec file measured in this run: test-results/spec-seconds.json\n');
}
