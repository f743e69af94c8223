// Background work on PGlite in statements bounded by time (docs/decisions/222): PGlite runs each
// statement on the server's thread, so one statement of background work is as long as the event
// loop and every request wait. The next batch's rows come from the cost per row measured so far,
// aiming at BACKGROUND_STATEMENT_MS; a slower batch lowers the estimate at once (an overshoot is
// not repeated), a faster one raises it gradually, and a batch grows at most 1.5× at a time.
// After each batch the worker pauses: as long as the batch took while requests are being served
// (background work then has at most half of the thread), a tenth of that when none came lately.
import type { PriorityGate } from './pglite-gate';

/** The time one statement of background work should hold PGlite (and the event loop). */
export const BACKGROUND_STATEMENT_MS = 15;
/** The pause after a batch on PGlite, as a share of the batch's time: while requests come… */
const PAUSE_SHARE_BUSY = 1;
/** …and when none came within REQUESTS_RECENT_MS. */
const PAUSE_SHARE_QUIET = 0.1;
const REQUESTS_RECENT_MS = 250;

export class TimeBatches {
  private rows: number;
  private msPerRow: number | undefined;

  constructor(
    private readonly maxRows: number,
    private readonly targetMs = BACKGROUND_STATEMENT_MS,
    firstRows = 1,
  ) {
    this.rows = Math.max(1, Math.min(maxRows, firstRows));
  }

  /** Rows for the next batch. */
  get size(): number {
    return this.rows;
  }

  /** Records that `rows` rows took `ms`; sizes the next batch. */
  took(rows: number, ms: number): void {
    if (rows <= 0) return;
    const perRow = Math.max(ms, 0.05) / rows;
    this.msPerRow = this.msPerRow === undefined || perRow > this.msPerRow ? perRow : 0.7 * this.msPerRow + 0.3 * perRow;
    const fit = Math.floor(this.targetMs / this.msPerRow);
    this.rows = Math.max(1, Math.min(this.maxRows, Math.ceil(rows * 1.5), fit));
  }
}

/** After a batch of background work on PGlite: a pause of a share of its time (`busyShare` of
 *  it while requests come, PAUSE_SHARE_BUSY unless the caller says otherwise). */
export function pauseAfter(batchMs: number, gate: PriorityGate | undefined, busyShare = PAUSE_SHARE_BUSY): Promise<void> {
  const share = gate?.requestsWithin(REQUESTS_RECENT_MS) === false ? PAUSE_SHARE_QUIET : busyShare;
  return new Promise((r) => setTimeout(r, Math.max(1, batchMs * share)));
}
