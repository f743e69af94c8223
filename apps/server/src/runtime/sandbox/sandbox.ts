// Runs approved Python functions: each call in a fresh child process (Pyodide in WebAssembly)
// with a wall-clock limit (the process is killed), a memory limit, no network, no secrets and no
// host files: the child is confined by the OS (confinement.ts) and strips Pyodide's bridges to the
// host itself (sandbox-child.mjs). Unapproved code is refused before any process sees it. One warm
// process is kept ready, so a call does not wait for Pyodide to load. Processes are capped (the
// spare included) globally and per owner; calls beyond the caps wait in a queue, and one that
// waits too long is answered SANDBOX_BUSY_MESSAGE (decision 412: each child holds ~190 MB, and
// anonymous visitors of a tool-using avatar decide how many calls there are).
// See docs/decisions/601-function-sandbox.md.
import { fork, type ChildProcess } from 'node:child_process';
import type { FunctionTool } from '../types';
import { childLaunch, pythonSnapshot } from './confinement';

export interface SandboxLimits {
  /** A function's own running time. */
  wallClockMs: number;
  /** Pyodide's start, before the call's own clock starts. */
  startMs: number;
  memoryMb: number;
  /** Children alive at once, the warm one included (each holds about 190 MB). */
  maxProcesses: number;
  /** Calls of one owner running at once. */
  maxPerOwner: number;
  /** How long a call waits for a free process before it is answered SANDBOX_BUSY_MESSAGE. */
  queueWaitMs: number;
}

export const SANDBOX_LIMITS: SandboxLimits = {
  wallClockMs: 5_000,
  startMs: 60_000,
  memoryMb: 256,
  // The defaults of config.ts (SANDBOX_MAX_PROCESSES...): a 2-core machine.
  maxProcesses: 3,
  maxPerOwner: 2,
  queueWaitMs: 10_000,
};

export const SANDBOX_BUSY_MESSAGE =
  'The function could not run: too many functions are running on this server right now. Please try again in a moment.';

export class UnapprovedFunction extends Error {
  constructor(name: string) {
    super(`The function ${name} is not approved and cannot run.`);
    this.name = 'UnapprovedFunction';
  }
}

interface Warm {
  /** The started child, once it said it is ready. */
  ready: Promise<ChildProcess>;
  /** Settles once the process has exited (or never started): its place is free again. */
  gone: Promise<void>;
}

interface Waiter {
  owner: string;
  start(): void;
}

export interface ToolDescription {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

type Reply = { ok: true; result: string; output: string } | { ok: false; error: string; output: string };

/** Owner of calls that name none (describe, tests): one more owner among the others. */
const NO_OWNER = '';

export class Sandbox {
  private spare: Warm | null = null;
  private closed = false;
  private wanted = false;
  private readonly running = new Set<ChildProcess>();
  /** Processes alive or starting (the spare included): never more than maxProcesses. */
  private live = 0;
  /** Calls running per owner, from their start to their process's exit. */
  private readonly perOwner = new Map<string, number>();
  /** Calls waiting for a place, oldest first. */
  private readonly queue: Waiter[] = [];
  private readonly limits: SandboxLimits;

  constructor(limits: Partial<SandboxLimits> = {}) {
    this.limits = { ...SANDBOX_LIMITS, ...limits };
  }

  private spawn(): Warm {
    this.live++;
    let release!: () => void;
    const gone = new Promise<void>((r) => (release = r)).then(() => {
      this.live--;
      this.pump();
    });
    let forked = false;
    const ready = pythonSnapshot().then((snapshot) => {
      if (this.closed) throw new Error('the sandbox is closed');
      const launch = childLaunch(this.limits.memoryMb, snapshot);
      const child = fork(launch.script, launch.args, launch.options);
      forked = true;
      this.running.add(child);
      child.once('exit', () => {
        this.running.delete(child);
        launch.cleanup();
        release();
      });
      return new Promise<ChildProcess>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error('the sandbox did not start'));
        }, this.limits.startMs);
        child.once('message', (m: { ready?: boolean }) => {
          clearTimeout(timer);
          if (m.ready) resolve(child);
          else reject(new Error('the sandbox did not start'));
        });
        child.once('exit', () => {
          clearTimeout(timer);
          reject(new Error('the sandbox exited'));
        });
      });
    });
    // A process that was never forked frees its place at once.
    ready.catch(() => {
      if (!forked) release();
    });
    return { ready, gone };
  }

  /** Starts a process now so the first call does not wait; one is kept ready from then on. */
  warm(): void {
    this.wanted = true;
    this.refill();
  }

  /** A spare process when one is wanted, none is waiting and the cap leaves room. */
  private refill(): void {
    if (this.wanted && !this.spare && !this.closed && this.queue.length === 0 && this.live < this.limits.maxProcesses)
      this.spare = this.spawn();
  }

  private canStart(owner: string): boolean {
    return (this.perOwner.get(owner) ?? 0) < this.limits.maxPerOwner && (this.spare !== null || this.live < this.limits.maxProcesses);
  }

  /** A process for one call of `owner`: the spare or a new one; its place is the owner's until it exits. */
  private take(owner: string): Warm {
    const w = this.spare ?? this.spawn();
    this.spare = null;
    this.perOwner.set(owner, (this.perOwner.get(owner) ?? 0) + 1);
    void w.gone.then(() => {
      const n = (this.perOwner.get(owner) ?? 1) - 1;
      if (n <= 0) this.perOwner.delete(owner);
      else this.perOwner.set(owner, n);
      this.pump();
    });
    // As before the caps: from the first call on, one process is kept ready for the next.
    this.wanted = true;
    this.refill();
    return w;
  }

  /** Starts the waiting calls that fit now (oldest first; an owner at its cap lets others pass). */
  private pump(): void {
    for (let i = 0; i < this.queue.length;) {
      const waiter = this.queue[i]!;
      if (this.closed || this.canStart(waiter.owner)) {
        this.queue.splice(i, 1);
        waiter.start();
      } else i++;
    }
    this.refill();
  }

  /** Waits for a place (at most queueWaitMs): the call's process, or null when it waited too long. */
  private acquire(owner: string): Promise<Warm | null> {
    if (this.queue.length === 0 && this.canStart(owner)) return Promise.resolve(this.take(owner));
    return new Promise((resolve) => {
      const waiter: Waiter = {
        owner,
        start: () => {
          clearTimeout(timer);
          resolve(this.closed ? null : this.take(owner));
        },
      };
      const timer = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        resolve(null);
        this.pump();
      }, this.limits.queueWaitMs);
      this.queue.push(waiter);
    });
  }

  private async job(payload: Record<string, unknown>, owner: string): Promise<Reply> {
    if (this.closed) throw new Error('the sandbox is closed');
    const place = await this.acquire(owner);
    if (this.closed) throw new Error('the sandbox is closed');
    if (!place) return { ok: false, error: SANDBOX_BUSY_MESSAGE, output: '' };
    const child = await place.ready;
    return new Promise<Reply>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve({ ok: false, error: `The function took longer than ${this.limits.wallClockMs / 1000} s and was stopped.`, output: '' });
      }, this.limits.wallClockMs);
      child.once('message', (m: Reply) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        resolve(m);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve({ ok: false, error: `The function's process ended (${signal ?? code}).`, output: '' });
      });
      child.send(payload);
    });
  }

  /** Runs an approved function with JSON arguments; the answer is JSON text, an error included. */
  async run(tool: FunctionTool, args: unknown): Promise<string> {
    return (await this.call(tool, args)).text;
  }

  /** As run, and whether the function succeeded (the call log records it). */
  async call(tool: FunctionTool, args: unknown): Promise<{ ok: boolean; text: string }> {
    if (!tool.approved) throw new UnapprovedFunction(tool.name);
    const reply = await this.job({ kind: 'run', code: tool.code, name: tool.name, args: args ?? {} }, tool.ownerId ?? NO_OWNER);
    return reply.ok ? { ok: true, text: reply.result } : { ok: false, text: JSON.stringify({ error: reply.error }) };
  }

  /** The editor's Try (issue 39 item 7): code that is not reviewed yet, run as a live call runs
   *  (the same confinement, caps, owner's share and limits: only the approval check is not made,
   *  since showing the customer what their code does before review is the point). The code can
   *  do nothing a live call could not: the confinement is what stops it, not the review. */
  async tryRun(
    code: string,
    name: string,
    args: unknown,
    ownerId: string,
  ): Promise<{ ok: true; result: string } | { ok: false; error: string }> {
    const reply = await this.job({ kind: 'run', code, name, args: args ?? {} }, ownerId);
    return reply.ok ? { ok: true, result: reply.result } : { ok: false, error: reply.error };
  }

  /** The public functions of a file and their argument schemas, read by parsing (nothing runs). */
  async describe(code: string): Promise<ToolDescription[]> {
    const reply = await this.job({ kind: 'describe', code }, NO_OWNER);
    if (!reply.ok) throw new Error(reply.error);
    return JSON.parse(reply.result) as ToolDescription[];
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pump();
    for (const c of this.running) c.kill('SIGKILL');
    this.running.clear();
    this.spare = null;
  }
}
