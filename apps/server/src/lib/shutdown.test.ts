// The shutdown's bounds (decision 014), on real processes: a step that never finishes is
// abandoned before the grace period ends, with a line naming it; a second SIGTERM exits at once;
// a main thread that never returns to its timers is killed by the watchdog thread, still within
// the grace period.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_TS } from '../../test/run-ts';

const FIXTURE = resolve(import.meta.dirname, '../../test/shutdown-fixture.ts');

interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  stderr: string;
}

async function stopFixture(mode: string, graceMs: number, signals: number): Promise<Stopped> {
  const child = spawn(process.execPath, [RUN_TS, FIXTURE, mode], {
    env: { PATH: process.env.PATH, SHUTDOWN_GRACE_MS: String(graceMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  await new Promise<void>((r) => child.stdout.on('data', (d) => String(d).includes('ready') && r()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const t0 = performance.now();
  child.kill('SIGTERM');
  for (let i = 1; i < signals; i++) {
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
  }
  const exit = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), graceMs + 10_000))]);
  if (!exit) child.kill('SIGKILL');
  return { code: exit?.code ?? null, signal: exit?.signal ?? null, ms: performance.now() - t0, stderr };
}

describe('shutdown bounds', () => {
  it('abandons a step that never finishes before the grace period ends, naming it', async () => {
    const r = await stopFixture('hang', 3000, 1);
    expect(r.ms).toBeLessThan(3000);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('abandoned: stuck step');
  }, 30_000);

  it('exits at once on a second SIGTERM', async () => {
    const r = await stopFixture('hang', 60_000, 2);
    expect(r.ms).toBeLessThan(5000);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('received again');
  }, 30_000);

  it('is killed by its watchdog within the grace period when its event loop never gets back to timers', async () => {
    const r = await stopFixture('starve', 3000, 1);
    expect(r.ms).toBeLessThan(3000);
    expect(r.signal).toBe('SIGKILL');
    expect(r.stderr).toContain('did not exit');
  }, 30_000);
});
