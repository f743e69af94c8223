import { sql, type Kysely } from 'kysely';

// Issue 37 item 4 (docs/decisions/500, amendment of 2026-11-29): the billing report's page read
// from the rollups of migration 0680.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The report's page (decision 500; read by account/billing.repository.ts). The whole days
    -- inside [s, e) come from billing_days, the other whole hours from billing_hours; the
    -- conversations the rollups cannot clip exactly are read from their rows: those starting in the range's partial first and last hours, those
    -- running into those hours from earlier (billing_crossings) and the open ones. Each of them
    -- adds what it counts in the range and takes off what the rollups counted of it inside the
    -- whole hours, so every other conversation is counted by the rollups alone. A function so
    -- that its plan is made once per connection: planning the statement took longer than running
    -- it for a small account. The microseconds are whole numbers summed as float8: exact while an
    -- avatar's time in one range stays under 2^53 µs (285 years).
    create function billing_report(o text, s timestamptz, e timestamptz, lim integer, skip integer)
      returns table (avatar_id text, avatar_name text, minutes float8, calls integer, total integer, total_minutes float8, total_calls integer)
      language plpgsql stable as $$
    #variable_conflict use_column
    declare
      h_start timestamptz := date_trunc('hour', s, 'UTC');
      h_first timestamptz := case when date_trunc('hour', s, 'UTC') = s then s else date_trunc('hour', s, 'UTC') + interval '1 hour' end;
      h_last timestamptz := date_trunc('hour', e, 'UTC');
      -- The whole days inside the whole hours: [d_first, d_last), empty when d_first = d_last.
      d_first timestamptz := case when date_trunc('day', h_first, 'UTC') = h_first then h_first else date_trunc('day', h_first, 'UTC') + interval '1 day' end;
      d_last timestamptz := greatest(d_first, date_trunc('day', h_last, 'UTC'));
    begin
      return query
      with edge as (
        select c.id, c.avatar_id, c.avatar_name, c.started_at, c.ended_at, coalesce(c.ended_at, c.last_seen_at) as until
          from conversations c where c.owner_id = o and c.started_at >= h_start and c.started_at < least(h_first, e)
        union
        select c.id, c.avatar_id, c.avatar_name, c.started_at, c.ended_at, coalesce(c.ended_at, c.last_seen_at)
          from conversations c where c.owner_id = o and c.started_at >= h_last and c.started_at < e
        union
        select c.id, c.avatar_id, c.avatar_name, c.started_at, c.ended_at, coalesce(c.ended_at, c.last_seen_at)
          from conversations c where c.owner_id = o and c.ended_at is null and c.started_at < e
        union
        select c.id, c.avatar_id, c.avatar_name, c.started_at, c.ended_at, coalesce(c.ended_at, c.last_seen_at)
          from billing_crossings x join conversations c on c.id = x.conversation_id
         where x.owner_id = o and x.hour in (h_start, h_last)
      ),
      judged as (
        select edge.*, edge.started_at < e and (edge.until > s or edge.started_at >= s) as counted, edge.ended_at is not null as rolled
          from edge
      ),
      parts as (
        select b.avatar_id, b.starts as calls, b.us::float8 as us, b.latest_at, b.latest_id, b.latest_name
          from billing_days b where b.owner_id = o and b.day >= d_first and b.day < d_last
        union all
        select b.avatar_id, b.starts, b.us::float8, b.latest_at, b.latest_id, b.latest_name
          from billing_hours b where b.owner_id = o and b.hour >= h_first and b.hour < least(d_first, h_last)
        union all
        select b.avatar_id, b.starts, b.us::float8, b.latest_at, b.latest_id, b.latest_name
          from billing_hours b where b.owner_id = o and b.hour >= greatest(d_last, h_first) and b.hour < h_last
        union all
        select j.avatar_id,
               j.counted::int - (j.rolled and j.started_at >= h_first and j.started_at < h_last)::int,
               (case when j.counted then greatest(0, (extract(epoch from (least(j.until, e) - greatest(j.started_at, s))) * 1000000)::bigint) else 0 end
                - case when j.rolled then greatest(0, (extract(epoch from (least(j.until, h_last) - greatest(j.started_at, h_first))) * 1000000)::bigint) else 0 end)::float8,
               case when j.counted then j.started_at end, case when j.counted then j.id end, case when j.counted then j.avatar_name end
          from judged j
      ),
      summed as (
        select p.avatar_id, sum(p.calls)::int as calls, floor((sum(p.us) / 1000 / 60000.0) * 100 + 0.5) as cents,
               min(p.latest_name collate "C") as lo, max(p.latest_name collate "C") as hi
          from parts p where s < e
         group by p.avatar_id having sum(p.calls) > 0
      ),
      -- An avatar whose conversations in the range carry more than one name: the latest one's.
      renamed as (
        select distinct on (p.avatar_id) p.avatar_id, p.latest_name
          from parts p
         where p.latest_at is not null and exists (select from summed m where m.lo <> m.hi)
           and p.avatar_id in (select m.avatar_id from summed m where m.lo <> m.hi)
         order by p.avatar_id, p.latest_at desc, p.latest_id desc
      ),
      named as (
        select m.avatar_id, coalesce(r.latest_name, m.hi collate "default") as avatar_name, m.cents, m.calls
          from summed m left join renamed r on r.avatar_id = m.avatar_id
      ),
      totals as (
        select count(*)::int as total, coalesce(sum(m.cents), 0)::float8 / 100 as total_minutes, coalesce(sum(m.calls), 0)::int as total_calls
          from summed m
      ),
      page as (select n.* from named n order by lower(n.avatar_name), n.avatar_name, n.avatar_id limit lim offset skip)
      select pg.avatar_id, pg.avatar_name, pg.cents::float8 / 100, pg.calls, t.total, t.total_minutes, t.total_calls
        from totals t left join page pg on true
       order by lower(pg.avatar_name), pg.avatar_name, pg.avatar_id;
    end
    $$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function billing_report(text, timestamptz, timestamptz, integer, integer)`.execute(db);
}
