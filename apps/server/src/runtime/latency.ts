// Per-turn latency (beyond the spec): time to the first delta, the engine's whole time and the
// retrieval time, recorded per turn and summarised per avatar as p50/p95.
import type { Kysely } from 'kysely';
import type { AvatarLatency, LatencySummary } from '@parla/shared/schemas/conversation';
import type { DB } from '../db/schema';
import { Batches } from './batches';
import { insertTurns, latestTurns, percentilesByAvatar, type TurnTiming } from './repositories/conversation-turns.repository';

export type { TurnTiming };

/** Turn timings are written in batches (one insert per batch), off the reply's path, one batch
 *  after another (batches.ts: a flush waits for the batch its timer started, too). */
export class TurnRecorder {
  private readonly batches: Batches<TurnTiming>;

  constructor(db: Kysely<DB>, onError: (err: unknown) => void, flushMs = 1000) {
    this.batches = new Batches(async (rows) => {
      await insertTurns(db, rows).catch(onError);
    }, flushMs);
  }

  add(t: TurnTiming): void {
    this.batches.add(t);
  }

  /** Resolves once every timing added so far is written (or logged). */
  flush(): Promise<void> {
    return this.batches.flush();
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
