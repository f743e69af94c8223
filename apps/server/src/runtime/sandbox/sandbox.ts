// Runs approved Python functions: each call in a fresh child process (Pyodide in WebAssembly)
// with a wall-clock limit (the process is killed), a memory limit, no network, no secrets and no
// host files: the child is confined by the OS (confinement.ts) and strips Pyodide's bridges to the
// host itself (sandbox-child.mjs). Unapproved code is refused before any process sees it. One warm
// process is kept ready, so a call does not wait for Pyodide to load.
// See docs/decisions/601-function-sandbox.md.
import { fork, type ChildProcess } from 'node:child_process';
import type { FunctionTool } from '../types';
import { childLaunch, pythonSnapshot } from './confinement';

export const SANDBOX_LIMITS = {
  /** A function's own running time. */
  wallClockMs: 5_000,
  /** Pyodide's start, before the call's own clock starts. */
  startMs: 60_000,
  memoryMb: 256,
} as const;

export class UnapprovedFunction extends Error {
  constructor(name: string) {
    super(`The function ${name} is not approved and cannot run.`);
    this.name = 'UnapprovedFunction';
  }
}

interface Warm {
  /** The started child, once it said it is ready. */
  ready: Promise<ChildProcess>;
}

export interface ToolDescription {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

type Reply = { ok: true; result: string; output: string } | { ok: false; error: string; output: string };

export class Sandbox {
  private spare: Warm | null = null;
  private closed = false;
  private readonly running = new Set<ChildProcess>();

  constructor(private readonly limits: { wallClockMs: number; memoryMb: number; startMs: number } = SANDBOX_LIMITS) {}

  private spawn(): Warm {
    const ready = pythonSnapshot().then((snapshot) => {
      if (this.closed) throw new Error('the sandbox is closed');
      const launch = childLaunch(this.limits.memoryMb, snapshot);
      const child = fork(launch.script, launch.args, launch.options);
      this.running.add(child);
      child.once('exit', () => {
        this.running.delete(child);
        launch.cleanup();
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
    ready.catch(() => undefined);
    return { ready };
  }

  /** Starts a process now so the first call does not wait. */
  warm(): void {
    if (!this.spare && !this.closed) this.spare = this.spawn();
  }

  private take(): Warm {
    const w = this.spare ?? this.spawn();
    this.spare = null;
    if (!this.closed) this.spare = this.spawn();
    return w;
  }

  private async job(payload: Record<string, unknown>): Promise<Reply> {
    if (this.closed) throw new Error('the sandbox is closed');
    const child = await this.take().ready;
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
    if (!tool.approved) throw new UnapprovedFunction(tool.name);
    const reply = await this.job({ kind: 'run', code: tool.code, name: tool.name, args: args ?? {} });
    return reply.ok ? reply.result : JSON.stringify({ error: reply.error });
  }

  /** The public functions of a file and their argument schemas, read by parsing (nothing runs). */
  async describe(code: string): Promise<ToolDescription[]> {
    const reply = await this.job({ kind: 'describe', code });
    if (!reply.ok) throw new Error(reply.error);
    return JSON.parse(reply.result) as ToolDescription[];
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.running) c.kill('SIGKILL');
    this.running.clear();
    this.spare = null;
  }
}
