// scripts/run-ts.mjs (how servers and nodes start, decision 001): started many at once on the
// same entry, as the e2e jobs and the CI chains start theirs, every one runs. Each writes its
// bundle's files under a temporary name, then renames them; one reading the folder while another
// renamed its files failed with ENOENT (4 of 30 starts, six at a time).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_TS } from './run-ts';

const FIXTURE = resolve(import.meta.dirname, 'run-ts-fixture.ts');

function start(): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [RUN_TS, FIXTURE], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += String(d)));
    child.stderr.on('data', (d: Buffer) => (output += String(d)));
    child.on('close', (code) => done({ code, output }));
  });
}

describe('run-ts', () => {
  it('runs an entry started many times at once, each module with its own URL and its lazy chunk', async () => {
    for (let round = 0; round < 3; round++) {
      const runs = await Promise.all(Array.from({ length: 6 }, start));
      for (const r of runs) {
        expect(r.output).toBe('own url 42 function\n');
        expect(r.code).toBe(0);
      }
    }
  }, 60_000);
});
