// The sandbox's OS-level layer on its own: a child started exactly as the Sandbox starts its
// children (confinement.ts: Node's permission model, empty environment, empty working directory,
// `nobody` when the server is root) but running JavaScript with none of the in-process layer,
// as if customer code had escaped Pyodide completely. It still reads no host file, writes
// nothing, starts no process or worker, and cannot signal the server.
// See docs/decisions/601-function-sandbox.md.
import { fork } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childLaunch, pythonSnapshot, stageRuntime } from '../../src/runtime/sandbox/confinement';

const SECRET = `canary-${randomBytes(12).toString('hex')}`;
let dir: string;

/** A child with every Node API in reach; each attempt answers what it got or 'refused: …'. */
const NAKED_CHILD = `
import { constants } from 'node:fs';
import { pathToFileURL } from 'node:url';
const attempt = async (fn) => { try { return String(await fn()); } catch (e) { return 'refused: ' + (e.code ?? e.message ?? e); } };
process.binding = (n) => ({ fs: constants });
const { loadPyodide } = await import(pathToFileURL(process.argv[3]).href);
const py = await loadPyodide({ jsglobals: Object.create(null) });
process.on('message', async ({ canary, ppid, dir }) => {
  const fs = await import('node:fs');
  const out = {
    readCanary: await attempt(() => fs.readFileSync(canary, 'utf8')),
    readServerEnv: await attempt(() => fs.readFileSync('/proc/' + ppid + '/environ', 'utf8')),
    readPasswd: await attempt(() => fs.readFileSync('/etc/passwd', 'utf8')),
    listCwd: await attempt(() => fs.readdirSync('.').join(',') || 'empty'),
    write: await attempt(() => fs.writeFileSync(dir + '/written', 'x')),
    writeCwd: await attempt(() => fs.writeFileSync('written', 'x')),
    spawn: await attempt(async () => (await import('node:child_process')).execFileSync('/bin/cat', [canary]).toString()),
    worker: await attempt(async () => { new (await import('node:worker_threads')).Worker('1', { eval: true }); return 'started'; }),
    signal: await attempt(() => process.kill(ppid, 0)),
    env: await attempt(() => JSON.stringify(process.env)),
    python: await attempt(() => py.runPython(\`
FS = __import__('pyodide_js').FS
FS.mkdir('/host')
FS.mount(FS.filesystems.NODEFS, __import__('pyodide').ffi.to_js({'root': '/'}, dict_converter=FS.constructor.fromEntries), '/host')
open('/host${'${canary}'}').read()\`.replace('\${canary}', canary))),
  };
  process.send(out);
});
process.send({ ready: true });
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'parla-confine-'));
  chmodSync(dir, 0o777);
  writeFileSync(join(dir, 'secret.key'), SECRET, { mode: 0o644 });
  process.env.PARLA_SANDBOX_CANARY = SECRET;
  writeFileSync(join(stageRuntime(), 'naked-child.mjs'), NAKED_CHILD, { mode: 0o444 });
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  delete process.env.PARLA_SANDBOX_CANARY;
});

describe('function sandbox confinement', () => {
  it('keeps code that escaped Pyodide from host files, writing, processes, workers, the server and its environment', async () => {
    const launch = childLaunch(192, await pythonSnapshot());
    const child = fork(join(stageRuntime(), 'naked-child.mjs'), launch.args, launch.options);
    const out = await new Promise<Record<string, string>>((resolve, reject) => {
      child.on('message', (m: Record<string, string> & { ready?: boolean }) => {
        if (m.ready) child.send({ canary: join(dir, 'secret.key'), ppid: process.pid, dir });
        else resolve(m);
      });
      child.once('exit', (code) => reject(new Error(`the child exited (${code})`)));
    }).finally(() => {
      child.kill('SIGKILL');
    });
    console.log('confinement:', JSON.stringify(out).slice(0, 800));
    expect(JSON.stringify(out)).not.toContain(SECRET);
    for (const k of ['readCanary', 'readServerEnv', 'readPasswd', 'write', 'writeCwd', 'spawn', 'worker', 'python'])
      expect(out[k], k).toMatch(/^refused/);
    expect(out.env).toBe('{}');
    expect(out.listCwd).toMatch(/^(empty|refused)/);
    expect(existsSync(join(dir, 'written'))).toBe(false);
    expect(existsSync(join(launch.options.cwd as string, 'written'))).toBe(false);
    if (process.getuid?.() === 0) {
      // Run as root, the server starts functions as nobody: the kernel refuses the signal too.
      expect(out.signal).toMatch(/^refused: EPERM/);
      expect(readFileSync('/proc/self/status', 'utf8')).toMatch(/Uid:\s+0\s/);
    }
    launch.cleanup();
  }, 90_000);
});
