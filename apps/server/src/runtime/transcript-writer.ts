// The transcripts' writer of one process: every conversation's messages are buffered and written
// together, one multi-row INSERT per batch, off the turns' path (issue 37: two INSERTs per turn on
// PGlite's main thread were about half the server's CPU per turn). A batch is written
// TRANSCRIPT_FLUSH_MS after its first message, when a conversation ends (its transcript is whole
// once its socket closes) and at shutdown, so a `kill -9` loses at most the messages of the last
// TRANSCRIPT_FLUSH_MS. Batches are written one after another, in the order the messages came.
import { Batches } from './batches';
import type { TranscriptRow, TranscriptStore } from './conversation/ports';

/** How long a message waits for others before its batch is written (the window a kill -9 loses). */
export const TRANSCRIPT_FLUSH_MS = 1000;
/**
 * Rows per INSERT. Each row costs about 0.1 ms on PGlite (the trigram index of the transcript
 * search), which holds its one thread for the whole statement: 500 rows held it 40 ms at the
 * median and up to 0.5 s, and a turn arriving meanwhile waited (decision 615's amendment).
 */
export const ROWS_PER_STATEMENT = 50;

export interface TranscriptWrites {
  /** One statement for all the rows. */
  many(rows: TranscriptRow[]): Promise<void>;
}

export class TranscriptWriter implements TranscriptStore {
  private readonly batches: Batches<TranscriptRow>;

  constructor(
    private readonly writes: TranscriptWrites,
    /** A message that could not be written (its avatar was deleted meanwhile: its words go with it). */
    private readonly onError: (err: unknown, row: TranscriptRow) => void,
    flushMs = TRANSCRIPT_FLUSH_MS,
  ) {
    this.batches = new Batches((rows) => this.write(rows), flushMs);
  }

  add(row: TranscriptRow): void {
    this.batches.add(row);
  }

  /** Writes what is buffered; resolves once every message added so far is written (or logged). */
  flush(): Promise<void> {
    return this.batches.flush();
  }

  private async write(rows: TranscriptRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const part = rows.slice(i, i + ROWS_PER_STATEMENT);
      try {
        await this.writes.many(part);
      } catch {
        // One row refused (a deleted avatar's) must not take the others with it: one by one.
        for (const row of part) await this.writes.many([row]).catch((err: unknown) => this.onError(err, row));
      }
    }
  }
}
