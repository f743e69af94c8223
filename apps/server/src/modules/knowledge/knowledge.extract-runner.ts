// Runs document extraction in a child process (knowledge.extract-child.ts) with a V8 heap limit,
// a resident-memory watchdog and a wall-clock limit: a document that needs more is killed with
// its process, and the item fails with a message, while the server's heap and event loop stay
// free. Each document gets a fresh process (nothing of one customer's file survives into the
// next); a crawl reads its pages in one process of its own (ExtractSession). The child runs as
// plain JavaScript, bundled once per server process (knowledge.extract-stage.ts). See docs/decisions/405-document-extraction-out-of-process.md.
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
const running = new Set<ChildProcess>();

/** Kills every reader now (the process is shutting down; their items were handed back). */
export function stopExtractions(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

type Ok<R> = R extends { ok: true } ? R : never;
type Answer = Ok<ExtractReply>;

/**
 * One extraction child reused for the jobs of one task (a crawl's pages), one job at a time. Each
 * job has the whole time limit (the process's start counted in the first); a job past a limit
 * kills the process and fails, and the next job starts a fresh one. close() ends it.
 */
export class ExtractSession {
  private child: ChildProcess | null = null;
  private ready = false;
  private closed = false;

  constructor(private readonly limits: ExtractLimits = EXTRACT_LIMITS) {}

  /** Starts the process now (it boots while the caller fetches its first page). */
  warm(): void {
    void this.live().catch(() => undefined);
  }

  /** The live child, started when there is none. */
  private async live(): Promise<ChildProcess> {
    const script = await extractChildScript().catch(() => {
      throw new ExtractCrash(EXTRACT_CRASHED);
    });
    if (this.closed) throw new ExtractCrash(EXTRACT_CRASHED);
    if (this.child?.connected) return this.child;
    if (this.child) this.stop(this.child);
    this.ready = false;
    const child = fork(script, [], {
      execArgv: [`--max-old-space-size=${this.limits.heapMb}`],
      env: {},
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
    });
    running.add(child);
    // Between jobs nobody else listens: an idle child's death or error must not reach the server.
    child.on('error', () => undefined);
    child.on('message', (m: { ready?: true }) => {
      if (m.ready && this.child === child) this.ready = true;
    });
    child.once('exit', () => {
      running.delete(child);
      if (this.child === child) this.child = null;
    });
    this.child = child;
    return child;
  }

  async run(job: ExtractJob): Promise<Answer> {
    const limits = this.limits;
    const child = await this.live();
    return new Promise<Answer>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void, kill: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(watch);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
        if (kill) this.stop(child);
        fn();
      };
      const fail = (message: string) => finish(() => reject(new ExtractCrash(message)), true);
      const onMessage = (m: ExtractReply | { ready: true }) => {
        if ('ready' in m) {
          child.send(job);
          return;
        }
        finish(() => (m.ok ? resolve(m) : reject(new ExtractError(m.error))), false);
      };
      // A V8 heap overflow aborts the child (SIGABRT, or exit code 134 through a shell).
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        fail(signal === 'SIGABRT' || code === 134 ? EXTRACT_MEMORY : EXTRACT_CRASHED);
      const onError = () => fail(EXTRACT_CRASHED);
      const timer = setTimeout(() => fail(EXTRACT_TIMEOUT(limits)), limits.timeMs);
      const watch = setInterval(() => {
        if (child.pid && residentMb(child.pid) > limits.rssMb) fail(EXTRACT_MEMORY);
      }, 100);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.once('error', onError);
      if (this.ready) child.send(job);
    });
  }

  close(): void {
    this.closed = true;
    if (this.child) this.stop(this.child);
  }

  private stop(child: ChildProcess): void {
    child.kill('SIGKILL');
    if (this.child === child) this.child = null;
  }
}

/** Reads one document in a fresh child, which ends with it. */
export async function extractInChild(job: ExtractJob, limits: ExtractLimits = EXTRACT_LIMITS): Promise<{ text: string; title?: string }> {
  const session = new ExtractSession(limits);
  try {
    const answer = await session.run(job);
    if (!('text' in answer)) throw new ExtractCrash(EXTRACT_CRASHED);
    return { text: answer.text, ...(answer.title ? { title: answer.title } : {}) };
  } finally {
    session.close();
  }
}
