// Where each reply chunk goes on the AudioContext's clock: right after the previous one
// (gapless), or a little ahead of now when the stream ran dry (the first chunk, a slow network).
// Pure: the player's clock is passed in.

/** Time between scheduling and playing a chunk that follows silence: enough for the audio thread. */
export const LEAD_SECONDS = 0.02;

export class ChunkSchedule {
  private next = 0;

  /** Start time of a chunk of `duration` seconds scheduled at `now`. */
  place(now: number, duration: number): number {
    const start = Math.max(now + LEAD_SECONDS, this.next);
    this.next = start + duration;
    return start;
  }

  /** When everything scheduled so far has played. */
  get end(): number {
    return this.next;
  }

  /** Forget what was scheduled (an interruption): the next chunk starts anew. */
  reset(): void {
    this.next = 0;
  }
}
