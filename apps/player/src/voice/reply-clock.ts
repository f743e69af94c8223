// The reply's clock: the AudioContext's time while it runs, the wall clock while it does not
// (autoplay refused until the visitor's first gesture, Firefox with no audio device), and
// continuous across a change between the two. Chunks are placed, and the lips read, on this
// clock; each source starts at the context's time that corresponds to it. When the context
// starts running, whatever was placed while it stood still must be placed again (its
// `start()` was given a context time that no longer corresponds to anything): `onRun` says so.
// Pure: the context's state and times, and the wall clock, are passed in.

export interface AudioClockSource {
  readonly state: string;
  readonly currentTime: number;
}

export class ReplyClock {
  private running: boolean | null = null;
  /** This clock minus the source's reading (context time or wall seconds) in the current mode. */
  private offset = 0;
  private last = 0;

  constructor(
    private readonly context: AudioClockSource,
    /** Wall clock in seconds. */
    private readonly wall: () => number = () => performance.now() / 1000,
    /** The context has just started running (after standing still, or for the first time). */
    private readonly onRun: () => void = () => undefined,
  ) {}

  /** Whether the context's own time drives the clock (its audio is heard). */
  get audible(): boolean {
    return this.context.state === 'running';
  }

  /** Seconds on the reply's clock. */
  now(): number {
    const running = this.audible;
    const raw = running ? this.context.currentTime : this.wall();
    if (running !== this.running) {
      const first = this.running === null;
      // The clock starts at the context's time and then goes on from where it was, so nothing
      // placed on it jumps when its source changes.
      this.offset = (first ? this.context.currentTime : this.last) - raw;
      this.running = running;
      this.last = raw + this.offset;
      if (running && !first) this.onRun();
      return this.last;
    }
    this.last = Math.max(this.last, raw + this.offset);
    return this.last;
  }

  /** The context's time at which something placed at `at` on this clock starts. */
  contextTime(at: number): number {
    return this.context.currentTime + Math.max(0, at - this.now());
  }
}
