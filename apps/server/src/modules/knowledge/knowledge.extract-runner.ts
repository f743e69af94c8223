// Runs document extraction in a child process (knowledge.extract-child.ts) with a V8 heap limit,
// a resident-memory watchdog and a wall-clock limit: a document that needs more is killed with
// its process, and the item fails with a message, while the server's heap and event loop stay
// free. Each document gets a fresh process (nothing of one customer's file survives into the
// next). The child runs as plain JavaScript, bundled once per server process
// (knowledge.extract-stage.ts). See docs/decisions/405-document-extraction-out-of-process.md.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ExtractJob, ExtractReply } from './knowledge.extract-child';
import { ExtractError } from './knowledge.extract-error';
import { extractChildScript } from './knowledge.extract-stage';

export interface ExtractLimits {
  /** Wall-clock time for one document, process start included. */
  timeMs: number;
  /** V8 heap of the child (--max-old-space-size). */
  heapMb: number;
  /** Resident memory of the child (buffers and WebAssembly included), polled. */
  rssMb: number;
}

export const EXTRACT_LIMITS: ExtractLimits = { timeMs: 60_000, heapMb: 256, rssMb: 640 };

/** The child died or was stopped: the document, not the server, is at fault. */
export class ExtractCrash extends ExtractError {
  constructor(message: string) {
    super(message);
    this.name = 'ExtractCrash';
  }
}

export const EXTRACT_TIMEOUT = (limits: ExtractLimits) =>
  `The document took longer than ${Math.round(limits.timeMs / 1000)} s to read and was stopped. Upload a simpler or smaller file.`;
export const EXTRACT_CRASHED = 'The document could not be read: its reader stopped unexpectedly.';
export const EXTRACT_MEMORY = 'The document needs too much memory to read and was stopped. Upload a simpler or smaller file.';

function residentMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0; // no /proc (not Linux) or the process is gone: the heap limit still holds
  }
}

/** Readers running now: a shutdown ends them (decision 014). */
const live = new Set<ChildProcess>();

/** Kills every reader now (the process is shutting down; their items were handed back). */
export function stopExtractions(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

export async function extractInChild(job: ExtractJob, limits: ExtractLimits = EXTRACT_LIMITS): Promise<{ text: string; title?: string }> {
  const script = await extractChildScript().catch(() => {
    throw new ExtractCrash(EXTRACT_CRASHED);
  });
  const child = fork(script, [], {
    execArgv: [`--max-old-space-size=${limits.heapMb}`],
    env: {},
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      child.kill('SIGKILL');
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(new ExtractCrash(EXTRACT_TIMEOUT(limits)))), limits.timeMs);
    const watch = setInterval(() => {
      if (child.pid && residentMb(child.pid) > limits.rssMb) finish(() => reject(new ExtractCrash(EXTRACT_MEMORY)));
    }, 100);
    child.on('message', (m: ExtractReply | { ready: true }) => {
      if ('ready' in m) {
        child.send(job);
        return;
      }
      finish(() => (m.ok ? resolve({ text: m.text, ...(m.title ? { title: m.title } : {}) }) : reject(new ExtractError(m.error))));
    });
    // A V8 heap overflow aborts the child (SIGABRT, or exit code 134 through a shell).
    child.once('exit', (code, signal) =>
      finish(() => reject(new ExtractCrash(signal === 'SIGABRT' || code === 134 ? EXTRACT_MEMORY : EXTRACT_CRASHED))),
    );
    child.once('error', () => finish(() => reject(new ExtractCrash(EXTRACT_CRASHED))));
  });
}
