// Every temporary directory the server makes (the sandbox's staged Pyodide, the bundled child
// scripts, a function's working directory, an embedded-voice worker's files) lives under one
// directory of this process, removed when the process exits. A process that cannot run its exit
// handler (`kill -9`, the kernel's out-of-memory killer) leaves it behind: the next server to
// start removes every such directory whose owner is no longer running. Before this, each killed
// server left 43 MB of Pyodide in the temporary folder, so a server restarted in a loop filled the
// disk (decision 018).
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'parla-run-';
const OWNER = 'owner.pid';
/** A directory with no owner file yet may be one another process is making right now. */
const UNOWNED_GRACE_MS = 60_000;

let root: string | null = null;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists and belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function abandoned(dir: string, now: number): boolean {
  let owner: string;
  try {
    owner = readFileSync(join(dir, OWNER), 'utf8');
  } catch {
    try {
      return now - statSync(dir).mtimeMs > UNOWNED_GRACE_MS;
    } catch {
      return false;
    }
  }
  const pid = Number(owner);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !running(pid);
}

/** Removes the run directories of processes that are gone; returns how many it removed. */
export function sweepAbandonedRunDirs(parent = tmpdir(), now = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(parent).filter((n) => n.startsWith(PREFIX));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const dir = join(parent, name);
    if (dir === root || !abandoned(dir, now)) continue;
    rmSync(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** This process's run directory (made, and the abandoned ones swept, on first use). Other users
 *  may pass through it (a confined child reads its staged files by name) but not list it. */
export function runDir(): string {
  if (root) return root;
  sweepAbandonedRunDirs();
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  writeFileSync(join(dir, OWNER), String(process.pid));
  chmodSync(dir, 0o711);
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  root = dir;
  return dir;
}

/** A fresh directory inside this process's run directory (made anew if a temporary-files
 *  cleaner removed it while the server ran). */
export function runTemp(prefix: string): string {
  try {
    return mkdtempSync(join(runDir(), prefix));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    root = null;
    return mkdtempSync(join(runDir(), prefix));
  }
}
