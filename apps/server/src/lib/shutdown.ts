// A process asked to stop stops within a grace period (issue 40, decision 014). The steps of a
// shutdown run in order, each named; a step that has not finished by its own time limit is left
// behind (still named as pending) and the next one starts. At the steps' deadline, kept a little
// before the grace period ends, whatever still hangs is abandoned and the process exits with a
// line naming it. A second SIGTERM or SIGINT exits at once. A watchdog thread kills the process
// just before the grace period ends even when the main event loop never gets back to its timers
// (a loop that only runs promise callbacks, such as PGlite handing its connection from one
// queued query to the next, starves them: the old unref'd force-exit timer came seconds late).
import { writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** Default grace period: rolling restarts and orchestrators wait about this long before SIGKILL
 *  (Kubernetes 30 s, systemd 90 s, Docker 10 s: the smallest). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** Each outbound call made while shutting down (REST `bye` events, billing, mail, callbacks). */
export const SHUTDOWN_CALL_TIMEOUT_MS = 2_000;
/** The steps' deadline comes this much before the grace period ends (at least 1.5 s, 15 % of
 *  it): exiting itself takes time on a loaded host (children killed, temporary files removed). */
export function stepsDeadlineMs(graceMs: number): number {
  return graceMs - Math.max(1_500, Math.round(graceMs * 0.15));
}
/** The watchdog kills the process this long before the grace period ends if it is still there,
 *  after the steps' deadline. 500 ms was too little on a loaded host: CI at a load average of 13
 *  saw the kill land 3,054 ms after a SIGTERM with 3 s of grace (the signal reaching the main
 *  thread, the thread starting, the kill and its exit all waited for a core). */
const WATCHDOG_BEFORE_END_MS = 1_000;

export interface ShutdownLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export class ShutdownSteps {
  private readonly pending = new Set<string>();
  readonly startedAt = Date.now();

  constructor(readonly graceMs: number) {}

  /** Milliseconds left before the deadline (never below 0). */
  remaining(): number {
    return Math.max(0, this.startedAt + this.graceMs - Date.now());
  }

  /** Runs one step; it counts as pending until it settles. Waits at most `limitMs` (and never
   *  past the deadline): a step still running then is left behind. An error is logged and the
   *  next step runs. */
  async run(name: string, fn: () => Promise<unknown> | unknown, log: ShutdownLog, limitMs = Infinity): Promise<void> {
    this.pending.add(name);
    const started = Date.now();
    const work = Promise.resolve()
      .then(fn)
      .then(
        () => void this.pending.delete(name),
        (err: unknown) => {
          this.pending.delete(name);
          log.warn({ step: name, err: String(err) }, 'a shutdown step failed');
        },
      );
    let timer: NodeJS.Timeout | undefined;
    const wait = Math.min(limitMs, this.remaining());
    await Promise.race([work, new Promise<void>((r) => (timer = setTimeout(r, wait)))]);
    clearTimeout(timer);
    if (this.pending.has(name)) log.warn({ step: name, afterMs: Date.now() - started }, 'a shutdown step did not finish in time; going on');
    else log.info({ step: name, ms: Date.now() - started }, 'shutdown step done');
  }

  /** The steps that have not finished. */
  stillPending(): string[] {
    return [...this.pending];
  }
}

/** Installs the SIGTERM/SIGINT handling of a process: `close` runs the shutdown's steps; the
 *  process exits 0 when they all finished, 1 when the deadline or a second signal cut them off.
 *  `abandon` runs synchronously just before such an exit (children are killed there). */
export function handleShutdownSignals(opts: {
  graceMs: number;
  log: ShutdownLog;
  close(steps: ShutdownSteps): Promise<void>;
  abandon?(): void;
  /** Process name in the log lines. */
  name: string;
}): void {
  let steps: ShutdownSteps | null = null;
  const exitNow = (why: string) => {
    const pending = steps?.stillPending() ?? [];
    // Synchronous write: the process exits on the next line, a logger's buffer may not flush.
    writeSync(2, `${opts.name}: ${why}; abandoned: ${pending.length ? pending.join(', ') : 'nothing'}\n`);
    try {
      opts.abandon?.();
    } finally {
      process.exit(1);
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (steps) return exitNow(`${signal} received again while shutting down: exiting at once`);
    // Everything that bounds the shutdown is set up before the first await.
    const deadline = stepsDeadlineMs(opts.graceMs);
    steps = new ShutdownSteps(deadline);
    const current = steps;
    setTimeout(() => exitNow(`shutdown did not finish within ${deadline} ms of its ${opts.graceMs} ms grace period`), deadline);
    startWatchdog(opts.graceMs - WATCHDOG_BEFORE_END_MS, opts.name);
    opts.log.info({ signal, graceMs: opts.graceMs }, 'shutting down');
    void opts
      .close(current)
      .catch((err: unknown) => opts.log.warn({ err: String(err) }, 'shutdown failed'))
      .then(() => {
        const pending = current.stillPending();
        if (pending.length) return exitNow('shutdown steps left behind');
        opts.log.info({ ms: Date.now() - current.startedAt }, 'shut down');
        process.exit(0);
      });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** A thread of its own that kills this process `ms` after now if it still runs: its timer fires even
 *  when the main thread's event loop is busy. The moment is fixed here, before the thread starts,
 *  so the thread's own start (about 65 ms at a load average of 6, more on a busier host) does not
 *  push the kill later. */
function startWatchdog(ms: number, name: string): void {
  const code = `
    const { workerData } = require('node:worker_threads');
    const { writeSync } = require('node:fs');
    setTimeout(() => {
      writeSync(2, workerData.name + ': the main thread did not exit ' + workerData.ms + ' ms after the shutdown began; killed\\n');
      process.kill(process.pid, 'SIGKILL');
    }, Math.max(0, workerData.at - Date.now()));
  `;
  try {
    const w = new Worker(code, { eval: true, workerData: { ms, at: Date.now() + ms, name } });
    w.unref();
  } catch {
    // No thread could start (out of memory?): the main thread's timer is still there.
  }
}
