// The call log of functions (issue 39 item 7, decision 415). Live calls are recorded off the
// turn's path: record() only appends to a bounded buffer, which a timer writes in one insert
// (a full buffer drops the oldest row rather than hold a turn or grow without bound). After each
// write, each function written keeps its newest CALLS_KEPT rows. What is stored: the time, the
// avatar, the duration, success, and an excerpt of the result or error. The arguments are never
// stored: they come from visitors' words and may carry anything they said.
import { CALL_EXCERPT_MAX_CHARS, type FunctionCallRecord } from '@parla/shared/schemas/functions';
import { paged, pageOf, type PageQuery } from '@parla/shared/schemas/paging';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context';
import type { DB } from '../../db/schema';
import { AppError } from '../../lib/errors';
import * as repo from './functions.repository';

export const CALLS_KEPT = 200;
const BUFFER_MAX = 1_000;
const FLUSH_MS = 1_000;

export interface CallRow {
  function_id: string;
  avatar_id: string | null;
  called_at: Date;
  duration_ms: number;
  ok: boolean;
  excerpt: string;
}

export function excerpt(text: string): string {
  return text.length > CALL_EXCERPT_MAX_CHARS ? `${text.slice(0, CALL_EXCERPT_MAX_CHARS - 1)}…` : text;
}

export class CallLog {
  private buffer: CallRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: { warn(obj: unknown, msg?: string): void },
  ) {}

  record(row: CallRow): void {
    if (this.buffer.length >= BUFFER_MAX) this.buffer.shift();
    this.buffer.push(row);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, FLUSH_MS);
    this.timer.unref?.();
  }

  /** Writes what is buffered (one write at a time); a failed write is logged, never thrown. */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      const rows = this.buffer;
      this.buffer = [];
      if (!rows.length) return;
      // One insert per function: a function deleted meanwhile (its row is gone) loses only its own rows.
      for (const id of new Set(rows.map((r) => r.function_id))) {
        try {
          await repo.insertCalls(
            this.db,
            rows.filter((r) => r.function_id === id),
          );
          await repo.pruneCalls(this.db, id, CALLS_KEPT);
        } catch (err) {
          // The log is not the turn: a database away costs these rows, nothing else.
          this.log.warn({ err, functionId: id }, 'the function call log could not be written');
        }
      }
    });
    return this.writing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}

/** The owner's log of one function, newest first; another account's function is a 404. */
export async function listCalls(
  ctx: AppContext,
  ownerId: string,
  id: string,
  query: PageQuery = {},
): Promise<{ calls: FunctionCallRecord[]; nextOffset: number | null }> {
  if (!(await repo.find(ctx.db, ownerId, id))) throw AppError.notFound('Function');
  const page = pageOf(query);
  const { rows, nextOffset } = paged(await repo.callsPage(ctx.db, ownerId, id, page), page);
  return {
    nextOffset,
    calls: rows.map((r) => ({
      at: new Date(r.called_at).toISOString(),
      avatarId: r.avatar_id,
      avatarName: r.avatar_name ?? null,
      durationMs: r.duration_ms,
      ok: Boolean(r.ok),
      excerpt: r.excerpt,
    })),
  };
}
