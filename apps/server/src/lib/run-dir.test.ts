// A server killed with `kill -9` runs no exit handler: its run directory (43 MB of staged Pyodide
// once a function has run) stays in the temporary folder until the next server starts and removes
// it. A live server's directory is never touched.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepAbandonedRunDirs } from './run-dir';

const parent = mkdtempSync(join(tmpdir(), 'parla-run-dir-test-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const MODULE = new URL('./run-dir.ts', import.meta.url).pathname;

/** A Node process (TMPDIR = parent) that makes its run directory and a temporary one inside it. */
async function serverLike(): Promise<{ pid: number; dir: string; kill(signal: NodeJS.Signals): Promise<void> }> {
  const code = `import { runTemp } from ${JSON.stringify(MODULE)}; process.on('SIGTERM', () => process.exit(0)); console.log(runTemp('parla-fn-')); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    env: { ...process.env, TMPDIR: parent },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (b: Buffer) => resolve(b.toString().trim()));
    child.once('exit', (c) => reject(new Error(`exited with ${c}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid!,
    dir: join(line, '..'),
    kill: async (signal) => {
      child.kill(signal);
      await exited;
    },
  };
}

describe('the run directory', () => {
  it("is removed at a clean exit; a killed process's is left, and the next sweep removes it while a live one's stays", async () => {
    const clean = await serverLike();
    expect(existsSync(clean.dir)).toBe(true);
    await clean.kill('SIGTERM');
    expect(existsSync(clean.dir)).toBe(false);

    const killed = await serverLike();
    const live = await serverLike();
    await killed.kill('SIGKILL');
    expect(readdirSync(killed.dir)).toEqual(expect.arrayContaining(['owner.pid']));
    expect(sweepAbandonedRunDirs(parent)).toBe(1);
    expect(existsSync(killed.dir)).toBe(false);
    expect(existsSync(live.dir)).toBe(true);
    await live.kill('SIGTERM');
  }, 60_000);

  it('leaves a directory with no owner yet for a minute (another process may be making it), then removes it', () => {
    const dir = join(parent, 'parla-run-unowned');
    mkdirSync(dir);
    writeFileSync(join(dir, 'x'), 'x');
    utimesSync(dir, new Date(), new Date());
    expect(sweepAbandonedRunDirs(parent)).toBe(0);
    expect(sweepAbandonedRunDirs(parent, Date.now() + 61_000)).toBe(1);
    expect(existsSync(dir)).toBe(false);
  });

  it('touches nothing that is not a run directory', () => {
    const other = join(parent, 'parla-test-other');
    mkdirSync(other);
    expect(sweepAbandonedRunDirs(parent, Date.now() + 3_600_000)).toBe(0);
    expect(existsSync(other)).toBe(true);
  });
});
