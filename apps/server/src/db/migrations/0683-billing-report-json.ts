import { sql, type Kysely } from 'kysely';
import { createReport0682 } from './0682-billing-report-walk';

// Issue 37 item 4 (docs/decisions/500, amendment "the page as one JSON value"): 0682's
// billing_report with the same answers: the page comes back as one JSON value already in the
// answer's shape (BillingRow[]) instead of up to 200 rows of eight columns (reading those rows
// cost PGlite's client 1–4.5 ms of CPU at 5,000 avatars), and the walk reads its candidates'
// rollup rows in one scan per table. 0682's other statements are copied here so that this
// migration keeps its meaning.
export const ROWS_0681 = `
      edge as (
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
      ),`;

export const PARTS_0681 = `
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
        select j.avatar_id, j.calls, j.us, j.latest_at, j.latest_id, j.latest_name from counted j
      ),`;

// The range's edges (s, e) as whole hours and whole days, in UTC (as in 0681).
export const RANGE_BOUNDS = `
      h_start timestamptz := date_trunc('hour', s, 'UTC');
      h_first timestamptz := case when date_trunc('hour', s, 'UTC') = s then s else date_trunc('hour', s, 'UTC') + interval '1 hour' end;
      h_last timestamptz := date_trunc('hour', e, 'UTC');
      d_first timestamptz := case when date_trunc('day', h_first, 'UTC') = h_first then h_first else date_trunc('day', h_first, 'UTC') + interval '1 day' end;
      d_last timestamptz := greatest(d_first, date_trunc('day', h_last, 'UTC'));
`;

// What each edge conversation adds in the range and takes off the whole hours (as in 0681).
export const COUNTED = `
      counted as (
        select j.avatar_id,
               j.counted::int - (j.rolled and j.started_at >= h_first and j.started_at < h_last)::int as calls,
               (case when j.counted then greatest(0, (extract(epoch from (least(j.until, e) - greatest(j.started_at, s))) * 1000000)::bigint) else 0 end
                - case when j.rolled then greatest(0, (extract(epoch from (least(j.until, h_last) - greatest(j.started_at, h_first))) * 1000000)::bigint) else 0 end)::float8 as us,
               case when j.counted then j.started_at end as latest_at, case when j.counted then j.id end as latest_id,
               case when j.counted then j.avatar_name end as latest_name
          from judged j
      ),`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function billing_report(text, timestamptz, timestamptz, integer, integer, integer)`.execute(db);
  await sql
    .raw(
      `
    -- The report's page (decision 500; read by account/billing.repository.ts), answering exactly
    -- what 0681's function answered, the page's rows as one JSON array of BillingRow. walk_cap:
    -- null chooses; 0 always sorts (0681's statement); n > 0 walks at most n candidates, then
    -- sorts if the walk did not find the whole page (the tests force both). \`walked\` says which
    -- answered.
    create function billing_report(o text, s timestamptz, e timestamptz, lim integer, skip integer, walk_cap integer default null)
      returns table (page json, total integer, total_minutes float8, total_calls integer, walked boolean)
      language plpgsql stable as $$
    #variable_conflict use_column
    declare${RANGE_BOUNDS}
      -- Below this many avatars in the range, or past this depth, sorting costs less than walking.
      walk_from constant integer := 64;
      walk_depth constant integer := 2000;
      cap integer := walk_cap;
      t_total integer;
      t_minutes float8;
      t_calls integer;
      wanted integer;
      rows json;
      found_rows integer;
      reads integer;
      edge_map jsonb;
    begin
      if cap is null and s < e then
        -- A small account sorts: fewer candidates than walk_from means fewer avatars in the range.
        if (select count(*) from (select from billing_names n where n.owner_id = o limit walk_from) x) >= walk_from
           and skip + lim <= walk_depth then
          cap := -1;
        else
          cap := 0;
        end if;
      end if;
      if cap <> 0 and s < e then
        -- The total row and count: every avatar's rounded minutes, no names, no order.
        with ${ROWS_0681}${COUNTED}${PARTS_0681}
        summed as (
          select p.avatar_id, sum(p.calls)::int as calls, floor((sum(p.us) / 1000 / 60000.0) * 100 + 0.5) as cents
            from parts p group by p.avatar_id having sum(p.calls) > 0
        ),
        -- For the walk: each avatar's edge conversations in one entry (calls, µs, and the latest
        -- counted one's start, id and name), looked up per candidate.
        edges as (
          select jsonb_object_agg(g.avatar_id, jsonb_build_array(g.calls, g.us, g.latest -> 0, g.latest -> 1, g.latest -> 2)) as map
            from (select c.avatar_id, sum(c.calls)::int as calls, sum(c.us) as us,
                         (array_agg(jsonb_build_array(c.latest_at::text, c.latest_id, c.latest_name) order by c.latest_at desc, c.latest_id desc)
                           filter (where c.latest_at is not null))[1] as latest
                    from counted c group by c.avatar_id) g
        )
        select count(*)::int, coalesce(sum(m.cents), 0)::float8 / 100, coalesce(sum(m.calls), 0)::int, (select x.map from edges x)
          into t_total, t_minutes, t_calls, edge_map
          from summed m;
        wanted := greatest(0, least(lim, t_total - skip));
        if cap = -1 then
          -- Chosen, not forced: only a range with enough avatars, and a bounded number of
          -- candidates (a range using few of many avatars falls back to the sort).
          cap := case when t_total >= walk_from then least(skip + lim, t_total) * 4 + walk_from else 0 end;
        end if;
        if wanted = 0 then
          return query select '[]'::json, t_total, t_minutes, t_calls, true;
          return;
        end if;
      end if;
      if cap > 0 and s < e then
        -- The walk: candidates in the report's order; each kept if its avatar has calls in the
        -- range and this is the name of its latest conversation there (by start, then id). The
        -- candidates' rollup rows are read by one index scan per table for all of them (0682
        -- probed the three runs once per candidate, stopping at the page's last row): first as
        -- many candidates as the page needs rows and walk_from more, then, if those were not
        -- enough, up to the cap. Run by EXECUTE, planned with this call's values: a plan kept for
        -- any cap read every name and sorted them on PostgreSQL instead of walking the index.
        for attempt in 1..2 loop
        reads := case when attempt = 1 then least(cap, skip + lim + walk_from) else cap end;
        exit when attempt = 2 and reads <= skip + lim + walk_from;
        execute $walk$
        with cand as materialized (
          select b.avatar_id, b.name, lower(b.name) as k from billing_names b where b.owner_id = $1
           order by lower(b.name), b.name, b.avatar_id limit $7
        ),
        ids as (select array_agg(c.avatar_id) as a from cand c),
        q as (
          select d.avatar_id, d.starts as calls, d.us::float8 as us, d.latest_at, d.latest_id, d.latest_name
            from billing_days d where d.owner_id = $1 and d.avatar_id = any ((select i.a from ids i)::text[]) and d.day >= $2 and d.day < $3
          union all
          select d.avatar_id, d.starts, d.us::float8, d.latest_at, d.latest_id, d.latest_name
            from billing_hours d where d.owner_id = $1 and d.avatar_id = any ((select i.a from ids i)::text[]) and d.hour >= $4 and d.hour < least($2, $5)
          union all
          select d.avatar_id, d.starts, d.us::float8, d.latest_at, d.latest_id, d.latest_name
            from billing_hours d where d.owner_id = $1 and d.avatar_id = any ((select i.a from ids i)::text[]) and d.hour >= greatest($3, $4) and d.hour < $5
          union all
          select x.key, (x.value ->> 0)::int, (x.value ->> 1)::float8, (x.value ->> 2)::timestamptz, x.value ->> 3, x.value ->> 4
            from jsonb_each($6) x
        ),
        u as (
          select q.avatar_id, sum(q.calls)::int as calls, floor((sum(q.us) / 1000 / 60000.0) * 100 + 0.5) as cents,
                 (array_agg(q.latest_name order by q.latest_at desc, q.latest_id desc) filter (where q.latest_at is not null))[1] as latest
            from q group by q.avatar_id
        ),
        walk as (
          select c.avatar_id, c.name, c.k, u.calls, u.cents
            from cand c join u on u.avatar_id = c.avatar_id
           where u.calls > 0 and u.latest = c.name
           order by c.k, c.name, c.avatar_id
           limit $8 offset $9
        )
        select json_agg(json_build_object('avatarName', w.name, 'avatarId', w.avatar_id, 'totalCallDuration', w.cents::float8 / 100,
                                          'totalCallCount', w.calls) order by w.k, w.name, w.avatar_id),
               count(*)::int
          from walk w
        $walk$
          into rows, found_rows using o, d_first, d_last, h_first, h_last, edge_map, reads, lim, skip;
        if found_rows = wanted then
          return query select rows, t_total, t_minutes, t_calls, true;
          return;
        end if;
        end loop;
      end if;
      -- The sort (0681's statement): name and order every avatar of the range.
      return query
      with ${ROWS_0681}${COUNTED}${PARTS_0681}
      summed as (
        select p.avatar_id, sum(p.calls)::int as calls, floor((sum(p.us) / 1000 / 60000.0) * 100 + 0.5) as cents,
               min(p.latest_name collate "C") as lo, max(p.latest_name collate "C") as hi
          from parts p where s < e
         group by p.avatar_id having sum(p.calls) > 0
      ),
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
      select (select coalesce(json_agg(json_build_object('avatarName', pg.avatar_name, 'avatarId', pg.avatar_id,
                                                         'totalCallDuration', pg.cents::float8 / 100, 'totalCallCount', pg.calls)
                                       order by lower(pg.avatar_name), pg.avatar_name, pg.avatar_id), '[]'::json)
                from page pg),
             t.total, t.total_minutes, t.total_calls, false
        from totals t;
    end
    $$;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function billing_report(text, timestamptz, timestamptz, integer, integer, integer)`.execute(db);
  await createReport0682(db);
}
