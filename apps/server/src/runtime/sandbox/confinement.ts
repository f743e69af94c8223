// The OS-level confinement of a function's child process, so that code which escapes Pyodide
// still finds nothing (docs/decisions/601-function-sandbox.md):
//   - Node's permission model: read access to one staged directory (the child's script and the
//     Pyodide files it loads), no write anywhere, no child processes, no workers, no addons, no WASI;
//   - an empty environment and a fresh empty working directory per process;
//   - when the server runs as root, the unprivileged `nobody` user (so /proc/<server>/environ,
//     DATA_DIR/secret.key and the database files, all root's and 0600, stay closed to it, and it
//     cannot signal the server).
// The staged directory is a private copy made once per server process, readable by everyone and
// writable by no one but its owner, so the child can read it whatever the checkout's permissions.
// It also holds the Python start-up snapshot (sandbox-snapshot.mjs), made once per process by a
// process that runs no customer code; children start from it (decision 601's amendment).
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile, type ChildProcess, type ForkOptions } from 'node:child_process';
import { runTemp } from '../../lib/run-dir';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The Pyodide files the child reads (the npm package's docs, maps and types are left out). */
const PYODIDE_FILES = ['package.json', 'pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];

let staged: string | null = null;

/** Copies the child's script and Pyodide into a fresh directory (once per process). */
export function stageRuntime(): string {
  if (staged) return staged;
  const dir = runTemp('parla-sandbox-');
  const pyodideDir = dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));
  mkdirSync(join(dir, 'pyodide'));
  for (const f of PYODIDE_FILES) {
    copyFileSync(join(pyodideDir, f), join(dir, 'pyodide', f));
    chmodSync(join(dir, 'pyodide', f), 0o444);
  }
  copyFileSync(join(HERE, 'sandbox-child.mjs'), join(dir, 'sandbox-child.mjs'));
  chmodSync(join(dir, 'sandbox-child.mjs'), 0o444);
  chmodSync(join(dir, 'pyodide'), 0o755);
  chmodSync(dir, 0o755);
  staged = dir;
  return dir;
}

let snapshot: Promise<string | null> | null = null;
/** The process making the snapshot, while it runs. */
let maker: ChildProcess | null = null;

/** Kills the snapshot maker if it still runs (the server process is exiting: decision 014). */
export function stopSnapshotMaker(): void {
  maker?.kill('SIGKILL');
  maker = null;
}

/** The Python start-up snapshot in the staged directory, made on first use (null when it could
 *  not be made: children then load Pyodide in full, as before). */
export function pythonSnapshot(): Promise<string | null> {
  snapshot ??= new Promise((resolve) => {
    const dir = stageRuntime();
    const file = join(dir, 'python.snapshot');
    const script = join(HERE, 'sandbox-snapshot.mjs');
    maker = execFile(process.execPath, [script, join(dir, 'pyodide', 'pyodide.mjs'), file], { env: {}, timeout: 120_000 }, (err) => {
      maker = null;
      if (err) return resolve(null);
      chmodSync(file, 0o444);
      resolve(file);
    });
  });
  return snapshot;
}

/** The unprivileged user a root server runs functions as: `nobody` from /etc/passwd, else 65534. */
export function unprivilegedUser(): { uid: number; gid: number } {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('nobody:'));
    const [, , uid, gid] = line?.split(':') ?? [];
    if (uid && gid && Number(uid) > 0) return { uid: Number(uid), gid: Number(gid) };
  } catch {
    /* no /etc/passwd: the conventional id */
  }
  return { uid: 65534, gid: 65534 };
}

/** Node 22.13+ and 23.5+ name the permission model `--permission`; Node 20 `--experimental-permission`. */
export function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
}

export interface ChildLaunch {
  script: string;
  args: string[];
  options: ForkOptions;
  /** Removes the process's working directory (call when it has exited). */
  cleanup(): void;
}

/** How to fork one confined child. */
export function childLaunch(memoryMb: number, snapshotFile: string | null): ChildLaunch {
  const dir = stageRuntime();
  const cwd = runTemp('parla-fn-');
  chmodSync(cwd, 0o755);
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return {
    script: join(dir, 'sandbox-child.mjs'),
    args: [String(memoryMb), join(dir, 'pyodide', 'pyodide.mjs'), snapshotFile ?? ''],
    options: {
      cwd,
      env: {},
      execArgv: [permissionFlag(), `--allow-fs-read=${dir}`, '--disallow-code-generation-from-strings', `--max-old-space-size=${memoryMb}`],
      ...(asRoot ? unprivilegedUser() : {}),
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'json',
    },
    cleanup: () => rmSync(cwd, { recursive: true, force: true }),
  };
}
