// The billing report's page from the hourly rollups of migration 0680 (issue 37 item 4): the
// whole hours inside the range are read from billing_hours, and the conversations the rollups
// cannot clip exactly are read from their rows and corrected: those starting in the range's
// partial first and last hours, those running into those hours from earlier (billing_crossings)
// and the open ones (the rollups hold ended conversations only). For each of them the answer
// adds what it counts in the range (decision 500's rules) and takes off what the rollups counted
// of it inside the whole hours, so every other conversation is counted by the rollups alone.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

const HOUR_MS = 3_600_000;

export interface UsagePage {
  rows: { avatarId: string; avatarName: string; minutes: number; calls: number }[];
  /** Rows in the range, every page. */
  total: number;
  /** Sum of every row's rounded minutes, and of every row's calls. */
  totalMinutes: number;
  totalCalls: number;
}

/** Microseconds of an interval, exactly (timestamps hold microseconds). */
const micros = (interval: ReturnType<typeof sql>) => sql`(extract(epoch from ${interval}) * 1000000)::bigint`;

/** Per avatar in [start, end): calls, microseconds and the latest conversation's name. */
function usageQuery(ownerId: string, start: Date, end: Date) {
  const s = sql`${start}::timestamptz`;
  const e = sql`${end}::timestamptz`;
  // The whole hours inside the range: [first, last). first >= last when there are none.
  const first = sql`${new Date(Math.ceil(start.getTime() / HOUR_MS) * HOUR_MS)}::timestamptz`;
  const last = sql`${new Date(Math.floor(end.getTime() / HOUR_MS) * HOUR_MS)}::timestamptz`;
  const startHour = sql`${new Date(Math.floor(start.getTime() / HOUR_MS) * HOUR_MS)}::timestamptz`;
  const cols = sql`c.id, c.avatar_id, c.avatar_name, c.started_at, c.ended_at, coalesce(c.ended_at, c.last_seen_at) as until`;
  return sql`
    with edge as (
      select ${cols} from conversations c
       where c.owner_id = ${ownerId} and c.started_at >= ${startHour} and c.started_at < least(${first}, ${e})
      union
      select ${cols} from conversations c
       where c.owner_id = ${ownerId} and c.started_at >= greatest(${last}, ${startHour}) and c.started_at < ${e}
      union
      select ${cols} from conversations c
       where c.owner_id = ${ownerId} and c.ended_at is null and c.started_at < ${e}
      union
      select ${cols} from billing_crossings x join conversations c on c.id = x.conversation_id
       where x.owner_id = ${ownerId} and x.hour in (${startHour}, ${last})
    ),
    judged as (
      select edge.*, started_at < ${e} and (until > ${s} or started_at >= ${s}) as counted,
             ended_at is not null as rolled
        from edge
    ),
    parts as (
      select avatar_id, starts::bigint as calls, us, latest_at, latest_id, latest_name
        from billing_hours
       where owner_id = ${ownerId} and hour >= ${first} and hour < ${last}
      union all
      select avatar_id,
             counted::int - (rolled and started_at >= ${first} and started_at < ${last})::int,
             case when counted then greatest(0, ${micros(sql`least(until, ${e}) - greatest(started_at, ${s})`)}) else 0 end
             - case when rolled then greatest(0, ${micros(sql`least(until, ${last}) - greatest(started_at, ${first})`)}) else 0 end,
             case when counted then started_at end, case when counted then id end, case when counted then avatar_name end
        from judged
    ),
    named as (
      select distinct on (avatar_id) avatar_id, latest_name as avatar_name
        from parts where latest_at is not null
       order by avatar_id, latest_at desc, latest_id desc
    ),
    summed as (
      select avatar_id, sum(calls)::int as calls, sum(us) as us from parts group by avatar_id having sum(calls) > 0
    )
    select summed.avatar_id, named.avatar_name, summed.us::float8 / 1000 as duration_ms, summed.calls
      from summed join named on named.avatar_id = summed.avatar_id
     where ${s} < ${e}`;
}

/**
 * One page of the range's rows, by name (case-insensitive) then id, each row's minutes rounded to
 * two decimals as JavaScript's Math.round rounds them (decision 500), with the totals of every row
 * of the range.
 */
export async function usagePage(db: Q, ownerId: string, start: Date, end: Date, limit: number, offset: number): Promise<UsagePage> {
  const res = await sql<{
    avatar_id: string | null;
    avatar_name: string | null;
    minutes: number;
    calls: number;
    total: number;
    total_minutes: number;
    total_calls: number;
  }>`
    with usage as (${usageQuery(ownerId, start, end)}),
    rounded as (select avatar_id, avatar_name, floor((duration_ms / 60000.0) * 100 + 0.5) / 100 as minutes, calls from usage),
    totals as (select count(*)::int as total, coalesce(sum(minutes * 100), 0)::float8 as centi, coalesce(sum(calls), 0)::int as total_calls from rounded),
    page as (select * from rounded order by lower(avatar_name), avatar_name, avatar_id limit ${limit} offset ${offset})
    select page.avatar_id, page.avatar_name, page.minutes::float8 as minutes, page.calls,
           totals.total, floor(totals.centi + 0.5)::float8 / 100 as total_minutes, totals.total_calls
      from totals left join page on true
     order by lower(page.avatar_name), page.avatar_name, page.avatar_id
  `.execute(db);
  const head = res.rows[0];
  return {
    rows: res.rows
      .filter((r) => r.avatar_id !== null)
      .map((r) => ({ avatarId: r.avatar_id!, avatarName: r.avatar_name!, minutes: Number(r.minutes), calls: Number(r.calls) })),
    total: Number(head?.total ?? 0),
    totalMinutes: Number(head?.total_minutes ?? 0),
    totalCalls: Number(head?.total_calls ?? 0),
  };
}
