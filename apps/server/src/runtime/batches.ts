// Rows written in batches off the turns' path: a batch is written `flushMs` after its first row
// (or at `flush()`), one batch after another, in the order the rows came. `flush()` resolves once
// every row added so far is written, the batch the timer started included. The transcripts' and
// the turn timings' writers use it.
export class Batches<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    /** Writes one batch; must not throw (its failures are its own to log). */
    private readonly write: (rows: T[]) => Promise<void>,
    private readonly flushMs: number,
  ) {}

  add(row: T): void {
    this.pending.push(row);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length) {
      const rows = this.pending.splice(0);
      this.writing = this.writing.then(() => this.write(rows));
    }
    return this.writing;
  }
}
