// The ingestion queue's claim (docs/decisions/411). Server data: the worker claims for every
// owner; what it claims is then processed by id. Two lanes: text items (their text is in the row,
// nothing to fetch or extract) and documents (files and pages: a fetch and an extraction child).
// The next item of a lane is the oldest of the owner this process holds fewest of, and among
// those, the owner served least recently (round robin): one customer's batch cannot make another's
// wait behind all of it. An item in processing is taken over when its lease ran out, or at once
// when the process that held it stopped heartbeating (runtime_processes, decision 630).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

export type IngestLane = 'text' | 'documents';

export interface ClaimOptions {
  lane: IngestLane;
  /** The claiming server process (runtime_processes.id); null: not known (tests), lease only. */
  processId: string | null;
  /** Items of one owner this process may hold at once in this lane. */
  perOwner: number;
  now: Date;
  leaseUntil: Date;
  /** A holder whose heartbeat is older than this (database clock) is dead. */
  deadAfterMs: number;
}

const laneOf = (lane: IngestLane) => (lane === 'text' ? sql`i.kind = 'text'` : sql`i.kind <> 'text'`);

/** An item in processing whose holder is gone: its lease ran out, or its process is not alive. */
const orphaned = (o: ClaimOptions) => sql`(i.status = 'processing' and (i.locked_until < ${o.now} or (
  i.process_id is not null and i.process_id is distinct from ${o.processId} and not exists (
    select 1 from runtime_processes p where p.id = i.process_id and p.seen_at >= now() - ${o.deadAfterMs}::int * interval '1 millisecond'))))`;

async function pickNext(db: Kysely<DB>, o: ClaimOptions): Promise<string | undefined> {
  const res = await sql<{ id: string }>`
    with held as (
      select i.owner_id, count(*)::int as n from knowledge_items i
      where i.status = 'processing' and ${laneOf(o.lane)} and i.process_id is not distinct from ${o.processId}
        and i.locked_until >= ${o.now}
      group by i.owner_id
    ), claimable as (
      select distinct on (i.owner_id) i.id, i.owner_id, i.created_at from knowledge_items i
      where ${laneOf(o.lane)} and (i.status = 'queued' or ${orphaned(o)})
      order by i.owner_id, i.created_at, i.id
    )
    select c.id from claimable c left join held h on h.owner_id = c.owner_id
    where coalesce(h.n, 0) < ${o.perOwner}
    order by coalesce(h.n, 0),
      (select max(k.claimed_at) from knowledge_items k where k.owner_id = c.owner_id) asc nulls first,
      c.created_at, c.id
    limit 1
  `.execute(db);
  return res.rows[0]?.id;
}

/**
 * Claims the next item of a lane for this process, or answers undefined. Taking over an item in
 * processing counts as a crash of the item (its holder died while reading it), which a retry
 * does not reset (decision 405). Several processes may pick the same item: the update is
 * conditional, and the loser picks again.
 */
export async function claimNextItem(db: Kysely<DB>, o: ClaimOptions) {
  for (let tries = 0; tries < 5; tries++) {
    const id = await pickNext(db, o);
    if (!id) return undefined;
    const res = await sql<{ id: string }>`
      update knowledge_items i set status = 'processing', attempts = attempts + 1,
        crashes = crashes + case when status = 'processing' then 1 else 0 end,
        locked_until = ${o.leaseUntil}, process_id = ${o.processId}, claimed_at = ${o.now}, updated_at = ${o.now}
      where i.id = ${id} and (i.status = 'queued' or ${orphaned(o)})
      returning i.id
    `.execute(db);
    if (res.rows[0]) return db.selectFrom('knowledge_items').selectAll().where('id', '=', id).executeTakeFirst();
  }
  return undefined;
}
