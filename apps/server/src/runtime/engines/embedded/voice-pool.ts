// The embedded voice's workers (decision 122): a few child processes (flite-child.mjs), each with
// Flite compiled once, synthesising one piece of text at a time, so speech never runs on the
// server's event loop. Jobs wait in one queue per conversation and the workers take them in
// turn across conversations, so one long reply cannot hold back everyone else's first sentence.
// A worker that dies (Flite aborts on some inputs) fails its job only and is replaced on demand.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDir } from '../../../lib/run-dir';

const CHILD = fileURLToPath(new URL('./flite-child.mjs', import.meta.url));

export interface VoicePoolOptions {
  /** Worker processes at most (default: one per core but one, at least one). */
  workers?: number;
  /** One piece's synthesis at most (the worker is killed past it). */
  jobTimeoutMs?: number;
  /** A worker's start (Flite's compile) at most. */
  startTimeoutMs?: number;
  /** Where each worker's own directory is made (default: the process's run directory). */
  filesRoot?: string;
}

export interface Synthesised {
  /** 16-bit mono PCM. */
  pcm: Buffer;
  sampleRate: number;
  /** Flite's `-psdur` line. */
  phones: string;
}

interface Job {
  key: string;
  /** Times a worker died under this job (it is tried once more on a new worker). */
  crashes: number;
  text: string;
  voice: string;
  resolve(s: Synthesised): void;
  reject(err: Error): void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

interface Worker {
  child: ChildProcess;
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

export const defaultVoiceWorkers = (): number => Math.max(1, availableParallelism() - 1);

export class EmbeddedVoicePool {
  private readonly queues = new Map<string, Job[]>();
  private readonly workers = new Set<Worker>();
  private closed = false;
  private nextId = 0;
  private readonly size: number;
  private readonly jobTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private readonly filesRoot: string;

  constructor(options: VoicePoolOptions = {}) {
    this.size = Math.max(1, options.workers ?? defaultVoiceWorkers());
    this.jobTimeoutMs = options.jobTimeoutMs ?? 20_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.filesRoot = options.filesRoot ?? runDir();
  }

  /** Starts the workers now (they compile Flite), so the first sentence does not wait for it. */
  warm(): void {
    while (!this.closed && this.workers.size < this.size) this.spawn();
  }

  /** One piece of text in `voice`; `key` is the conversation, for fairness between them. */
  synthesize(text: string, voice: string, key: string, signal?: AbortSignal): Promise<Synthesised> {
    if (this.closed) return Promise.reject(new Error('the embedded voice is closed'));
    if (signal?.aborted) return Promise.reject(new Error('cancelled'));
    return new Promise<Synthesised>((resolve, reject) => {
      const job: Job = {
        key,
        crashes: 0,
        text,
        voice,
        resolve,
        reject,
        signal,
        onAbort: () => {
          const q = this.queues.get(key);
          const at = q?.indexOf(job) ?? -1;
          if (q && at >= 0) {
            q.splice(at, 1);
            if (!q.length) this.queues.delete(key);
            reject(new Error('cancelled'));
          }
        },
      };
      signal?.addEventListener('abort', job.onAbort, { once: true });
      const q = this.queues.get(key);
      if (q) q.push(job);
      else this.queues.set(key, [job]);
      this.dispatch();
    });
  }

  /** The next job, taken round the conversations in turn (a served one goes to the back). */
  private take(): Job | null {
    for (const [key, q] of this.queues) {
      const job = q.shift()!;
      this.queues.delete(key);
      if (q.length) this.queues.set(key, q);
      return job;
    }
    return null;
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const w of this.workers) {
      if (!w.ready || w.job) continue;
      const job = this.take();
      if (!job) return;
      this.run(w, job);
    }
    const waiting = [...this.queues.values()].reduce((n, q) => n + q.length, 0);
    const starting = [...this.workers].filter((w) => !w.ready).length;
    for (let i = starting; i < waiting && this.workers.size < this.size; i++) this.spawn();
  }

  private run(w: Worker, job: Job): void {
    job.signal?.removeEventListener('abort', job.onAbort);
    w.job = job;
    w.child.channel?.ref();
    w.timer = setTimeout(() => {
      this.finish(w, new Error(`the embedded voice took longer than ${this.jobTimeoutMs / 1000} s`));
      w.child.kill('SIGKILL');
    }, this.jobTimeoutMs);
    w.child.send({ id: ++this.nextId, text: job.text, voice: job.voice });
  }

  private finish(w: Worker, result: Synthesised | Error): void {
    const job = w.job;
    if (w.timer) clearTimeout(w.timer);
    w.job = null;
    w.timer = null;
    w.child.channel?.unref();
    if (job) {
      if (result instanceof Error) job.reject(result);
      else job.resolve(result);
    }
  }

  private spawn(): void {
    // The worker's files (Flite's output) live in a directory this process removes at the
    // worker's exit: a worker killed by its job's timeout or by close() cleans up nothing itself.
    const dir = mkdtempSync(join(this.filesRoot, 'parla-flite-'));
    const child = fork(CHILD, [dir], {
      execArgv: ['--expose-gc'],
      env: {},
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
    });
    const w: Worker = { child, ready: false, job: null, timer: null };
    this.workers.add(w);
    // An idle worker never keeps the server (or a test) from exiting; a starting one does (a job
    // waits for it), and so does a busy one (run()).
    child.unref();
    const start = setTimeout(() => child.kill('SIGKILL'), this.startTimeoutMs);
    start.unref();
    child.on('message', (m: { ready?: true; ok?: boolean; wav?: Uint8Array; phones?: string; error?: string }) => {
      if (m.ready) {
        clearTimeout(start);
        w.ready = true;
        this.dispatch();
        if (!w.job) child.channel?.unref();
        return;
      }
      try {
        this.finish(
          w,
          m.ok && m.wav
            ? { ...readWav(Buffer.from(m.wav.buffer, m.wav.byteOffset, m.wav.byteLength)), phones: m.phones ?? '' }
            : new Error(m.error ?? 'no audio'),
        );
      } catch (err) {
        this.finish(w, err instanceof Error ? err : new Error(String(err)));
      }
      this.dispatch();
    });
    child.once('exit', (code, signal) => {
      clearTimeout(start);
      rmSync(dir, { recursive: true, force: true });
      this.workers.delete(w);
      const job = w.job;
      if (job && job.crashes === 0 && !this.closed && signal !== 'SIGKILL') {
        // A crash (not our timeout's kill): the piece gets one more worker, at the head of its queue.
        if (w.timer) clearTimeout(w.timer);
        w.job = null;
        job.crashes++;
        this.queues.set(job.key, [job, ...(this.queues.get(job.key) ?? [])]);
      }
      this.finish(w, new Error(`the embedded voice stopped (${signal ?? code})`));
      // Jobs still waiting get a new worker.
      this.dispatch();
    });
    child.on('error', () => rmSync(dir, { recursive: true, force: true }));
  }

  /** The workers' process ids (tests kill one to see the pool carry on). */
  pids(): number[] {
    return [...this.workers].flatMap((w) => (w.child.pid ? [w.child.pid] : []));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queues.values()) for (const job of q) job.reject(new Error('the embedded voice is closed'));
    this.queues.clear();
    const exits = [...this.workers].map(
      (w) => new Promise<void>((resolve) => (w.child.exitCode !== null ? resolve() : w.child.once('exit', () => resolve()))),
    );
    for (const w of this.workers) {
      w.child.ref();
      w.child.kill('SIGKILL');
    }
    await Promise.all(exits);
  }
}

/** The PCM and rate of a RIFF/WAVE file of 16-bit mono PCM (what Flite writes). */
export function readWav(wav: Buffer): { pcm: Buffer; sampleRate: number } {
  if (wav.length < 12 || wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE')
    throw new Error('not a WAV file');
  let sampleRate = 0;
  for (let at = 12; at + 8 <= wav.length;) {
    const id = wav.toString('latin1', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && size >= 16) {
      if (wav.readUInt16LE(body) !== 1 || wav.readUInt16LE(body + 2) !== 1 || wav.readUInt16LE(body + 14) !== 16)
        throw new Error('not 16-bit mono PCM');
      sampleRate = wav.readUInt32LE(body + 4);
    }
    if (id === 'data') {
      if (!sampleRate) throw new Error('no format before the audio');
      const end = Math.min(wav.length, body + size);
      return { pcm: wav.subarray(body, end - ((end - body) % 2)), sampleRate };
    }
    at = body + size + (size % 2);
  }
  throw new Error('no audio in the WAV file');
}
