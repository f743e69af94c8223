// Per-turn latency (beyond the spec): time to the first delta, the engine's whole time and the
// retrieval time, recorded per turn and summarised per avatar as p50/p95.
import type { Kysely } from 'kysely';
import type { AvatarLatency, LatencySummary } from '@parla/shared/schemas/conversation';
import type { DB } from '../db/schema';
import { insertTurns, latestTurns, percentilesByAvatar, type TurnTiming } from './repositories/conversation-turns.repository';

export type { TurnTiming };

/** Turn timings are written in batches (one insert per flush), off the reply's path, one batch
 *  after another. */
export class TurnRecorder {
  private pending: TurnTiming[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly onError: (err: unknown) => void,
    private readonly flushMs = 1000,
  ) {}

  add(t: TurnTiming): void {
    this.pending.push(t);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes what is buffered; resolves once every timing added so far is written (or logged),
   *  the batch the timer started included (a flush that found nothing pending used to return while
   *  that batch was still being written: a CI run on PostgreSQL saw it land after). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length) {
      const rows = this.pending.splice(0);
      this.writing = this.writing.then(async () => {
        await insertTurns(this.db, rows).catch(this.onError);
      });
    }
    return this.writing;
  }
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return Math.round(sorted[rank - 1]! * 10) / 10;
}

const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95) };
};

/** The last 1000 turns of one avatar of one owner. */
export async function latencySummary(db: Kysely<DB>, ownerId: string, avatarId: string): Promise<LatencySummary> {
  const rows = await latestTurns(db, ownerId, avatarId, 1000);
  return {
    turns: rows.length,
    firstDelta: summary(rows.filter((r) => r.first_delta_ms !== null).map((r) => Number(r.first_delta_ms))),
    engine: summary(rows.map((r) => Number(r.engine_ms))),
    retrieval: summary(rows.map((r) => Number(r.retrieval_ms))),
  };
}

const round = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);

/** Every avatar of an owner with turns in the last 30 days: p50/p95 of each timing, named as in
 *  its latest conversation record (a deleted avatar keeps its name). */
export async function latencyByAvatar(db: Kysely<DB>, ownerId: string, now: Date): Promise<AvatarLatency[]> {
  const since = new Date(now.getTime() - 30 * 24 * 60 * 60_000);
  const rows = await percentilesByAvatar(db, ownerId, since);
  return rows.map((r) => ({
    avatarId: r.avatar_id,
    avatarName: r.avatar_name ?? r.avatar_id,
    latency: {
      turns: Number(r.turns),
      firstDelta: { p50: round(r.fd50), p95: round(r.fd95) },
      engine: { p50: round(r.e50), p95: round(r.e95) },
      retrieval: { p50: round(r.r50), p95: round(r.r95) },
    },
  }));
}
