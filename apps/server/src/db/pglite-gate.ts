// Requests first on PGlite's one connection (docs/decisions/222). Work started inside
// `inBackground` (knowledge ingestion, re-index, re-crawl, vacuum, back-fills) waits in a second
// queue: it gets the connection only when no other query waits for it, and even then only after
// the event loop has had a turn, so a request that arrived while a background statement held the
// thread (PGlite runs each statement on it) is read and reaches its first query first, and a
// request between two of its statements keeps its place. Background work cannot starve: a request
// only goes first while it waits; a background waiter is served as soon as the queue of others is
// empty.
import { AsyncLocalStorage } from 'node:async_hooks';

const background = new AsyncLocalStorage<boolean>();

/** Runs `work` (and everything it starts) as background work on the PGlite connection. */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

/** Whether the caller runs inside `inBackground`. */
function isBackground(): boolean {
  return background.getStore() === true;
}

/** How long one holder kept the connection, whether it was background work, and its slowest
 *  statement's SQL. */
export type HoldObserver = (ms: number, background: boolean, sql: string | undefined) => void;

export class PriorityGate {
  private held = false;
  private handing = false;
  private readonly first: (() => void)[] = [];
  private readonly later: (() => void)[] = [];
  private observer: HoldObserver | undefined;
  /** When a request (anything but background work) last got the connection. */
  private lastRequestAt = -Infinity;

  /** Profiling (bench 9): told how long each holder kept the connection. */
  observe(observer: HoldObserver | undefined): void {
    this.observer = observer;
  }

  /** Whether a request got the connection in the last `ms` milliseconds. */
  requestsWithin(ms: number): boolean {
    return performance.now() - this.lastRequestAt <= ms;
  }

  /** Whether an observer listens (the connection then times its statements). */
  get observed(): boolean {
    return this.observer !== undefined;
  }

  /** Waits for the connection; resolves with the function that gives it back (with the SQL of
   *  the holder's slowest statement, when observed). */
  acquire(low = isBackground()): Promise<(sql?: string) => void> {
    return new Promise((resolve) => {
      const grant = () => {
        this.held = true;
        if (!low) this.lastRequestAt = performance.now();
        const since = performance.now();
        let released = false;
        resolve((sql?: string) => {
          if (released) return;
          released = true;
          this.observer?.(performance.now() - since, low, sql);
          this.held = false;
          this.next();
        });
      };
      (low ? this.later : this.first).push(grant);
      this.next();
    });
  }

  private next(): void {
    if (this.held) return;
    const urgent = this.first.shift();
    if (urgent) return urgent();
    if (this.later.length === 0 || this.handing) return;
    // Background: only after a turn of the event loop (I/O that arrived meanwhile is read, and
    // the requests it starts queue their queries first), and only if nobody else is waiting then.
    this.handing = true;
    setImmediate(() => {
      this.handing = false;
      if (this.held) return;
      const grant = this.first.shift() ?? this.later.shift();
      grant?.();
    });
  }
}
