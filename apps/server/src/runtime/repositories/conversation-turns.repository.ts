// Turn timings (conversation_turns): written in batches by the runtime's TurnRecorder, read as
// percentiles per avatar. Every reader passes the owner id.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

export interface TurnTiming {
  conversationId: string;
  ownerId: string;
  avatarId: string;
  at: Date;
  firstDeltaMs: number | null;
  engineMs: number;
  retrievalMs: number;
  interrupted: boolean;
  /** Not stored: the metrics count it (decision 630). */
  failed?: boolean;
}

export async function insertTurns(db: Kysely<DB>, rows: TurnTiming[]): Promise<void> {
  await db
    .insertInto('conversation_turns')
    .values(
      rows.map((t) => ({
        id: randomUUID(),
        conversation_id: t.conversationId,
        owner_id: t.ownerId,
        avatar_id: t.avatarId,
        at: t.at,
        first_delta_ms: t.firstDeltaMs,
        engine_ms: t.engineMs,
        retrieval_ms: t.retrievalMs,
        interrupted: t.interrupted,
      })),
    )
    .execute();
}

/** The timings of one avatar's last `limit` turns, newest first. */
export function latestTurns(db: Kysely<DB>, ownerId: string, avatarId: string, limit: number) {
  return db
    .selectFrom('conversation_turns')
    .select(['first_delta_ms', 'engine_ms', 'retrieval_ms'])
    .where('owner_id', '=', ownerId)
    .where('avatar_id', '=', avatarId)
    .orderBy('at', 'desc')
    .limit(limit)
    .execute();
}

export interface AvatarPercentileRow {
  avatar_id: string;
  turns: number;
  fd50: number | null;
  fd95: number | null;
  e50: number | null;
  e95: number | null;
  r50: number | null;
  r95: number | null;
  avatar_name: string | null;
}

/** p50/p95 of each timing per avatar of an owner since `since`, named as in the avatar's latest
 *  conversation record (a deleted avatar keeps its name). */
export async function percentilesByAvatar(db: Kysely<DB>, ownerId: string, since: Date): Promise<AvatarPercentileRow[]> {
  const res = await sql<AvatarPercentileRow>`
    select t.avatar_id,
           count(*)::int as turns,
           percentile_disc(0.5) within group (order by t.first_delta_ms) as fd50,
           percentile_disc(0.95) within group (order by t.first_delta_ms) as fd95,
           percentile_disc(0.5) within group (order by t.engine_ms) as e50,
           percentile_disc(0.95) within group (order by t.engine_ms) as e95,
           percentile_disc(0.5) within group (order by t.retrieval_ms) as r50,
           percentile_disc(0.95) within group (order by t.retrieval_ms) as r95,
           (select c.avatar_name from conversations c where c.owner_id = ${ownerId} and c.avatar_id = t.avatar_id order by c.started_at desc limit 1) as avatar_name
      from conversation_turns t
     where t.owner_id = ${ownerId} and t.at >= ${since}
     group by t.avatar_id
     order by avatar_name
  `.execute(db);
  return res.rows;
}
