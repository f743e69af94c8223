import { sql, type Kysely } from 'kysely';
import { COUNTED, PARTS_0681, RANGE_BOUNDS, ROWS_0681, up as createReport0683 } from './0683-billing-report-json';
import { up as createMinutes0684 } from './0684-billing-minutes';

// Issue 37 item 4 (docs/decisions/500, amendment "the total row as the exact total"). The total
// row is the owner's exact minutes in the range (what the plan counts) and its calls, read from
// the owner-level rollups of 0692 plus the range's edge conversations (0681's edges): O(hours +
// days + edge conversations), whatever the number of avatars. No row count: the page says whether
// another follows (`more`, from reading one row past it), so a page found by the names walk
// (0682, 0683) reads about as many avatars as it shows. Rows are unchanged (each rounded, named
// after its latest conversation, by name then id).

// The owner's calls and microseconds in the range: whole days, the other whole hours, the edges.
// \`run\` says where a row comes from (1: the whole days, 2 and 3: the whole hours before and after
// them, 0: an edge conversation); the walk probes each avatar only in the runs where the owner has rows.
const OWNER_PARTS = `
      owner_parts as (
        select 1 as run, b.starts as calls, b.us::float8 as us from billing_owner_days b where b.owner_id = o and b.day >= d_first and b.day < d_last
        union all
        select 2, b.starts, b.us::float8 from billing_owner_hours b where b.owner_id = o and b.hour >= h_first and b.hour < least(d_first, h_last)
        union all
        select 3, b.starts, b.us::float8 from billing_owner_hours b where b.owner_id = o and b.hour >= greatest(d_last, h_first) and b.hour < h_last
        union all
        select 0, j.calls, j.us from counted j
      ),`;

/** billing_minutes over the given edge-rows CTE (0681's here; 0700 passes its own). */
export const minutesSql = (rows: string): string => `
    create or replace function billing_minutes(o text, s timestamptz, e timestamptz)
      returns float8 language plpgsql stable set plan_cache_mode = force_generic_plan as $$
    #variable_conflict use_column
    declare${RANGE_BOUNDS}
    begin
      if s >= e then
        return 0;
      end if;
      return (
        with ${rows}${COUNTED}${OWNER_PARTS}
        used as (select coalesce(sum(p.us), 0) as us from owner_parts p)
        select u.us / 60000000.0 from used u
      );
    end
    $$;`;

// The walk of 0683, reading one row past the page and counting its candidates. A static statement
// (0683 ran it by EXECUTE, planned on every call: about half of its cost on PGlite), with a generic
// plan that walks the names index on both databases (decision 500's amendment measures it).
export const WALK = `
        with cand as materialized (
          select b.avatar_id, b.name, lower(b.name) as k from billing_names b where b.owner_id = o
           order by lower(b.name), b.name, b.avatar_id limit reads
        ),
        ids as (select array_agg(c.avatar_id) as a from cand c),
        q as (
          select d.avatar_id, d.starts as calls, d.us::float8 as us, d.latest_at, d.latest_id, d.latest_name
            from billing_days d where in_days and d.owner_id = o and d.avatar_id = any ((select i.a from ids i)::text[]) and d.day >= d_first and d.day < d_last
          union all
          select d.avatar_id, d.starts, d.us::float8, d.latest_at, d.latest_id, d.latest_name
            from billing_hours d where in_before and d.owner_id = o and d.avatar_id = any ((select i.a from ids i)::text[]) and d.hour >= h_first and d.hour < least(d_first, h_last)
          union all
          select d.avatar_id, d.starts, d.us::float8, d.latest_at, d.latest_id, d.latest_name
            from billing_hours d where in_after and d.owner_id = o and d.avatar_id = any ((select i.a from ids i)::text[]) and d.hour >= greatest(d_last, h_first) and d.hour < h_last
          union all
          select x.key, (x.value ->> 0)::int, (x.value ->> 1)::float8, (x.value ->> 2)::timestamptz, x.value ->> 3, x.value ->> 4
            from jsonb_each(edge_map) x
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
           limit lim + 1 offset skip
        ),
        numbered as (select w.*, row_number() over (order by w.k, w.name, w.avatar_id) as n from walk w)
        select coalesce(json_agg(json_build_object('avatarName', w.name, 'avatarId', w.avatar_id, 'totalCallDuration', w.cents::float8 / 100,
                                                   'totalCallCount', w.calls) order by w.n) filter (where w.n <= lim), '[]'::json),
               count(*)::int, (select count(*)::int from cand)
          into rows, found_rows, read_names
          from numbered w`;

// 0681's statement over every avatar of the range (a small account, or a walk that fell short).
const sortSql = (rows: string): string => `
      with ${rows}${COUNTED}${PARTS_0681}
      summed as (
        select p.avatar_id, sum(p.calls)::int as calls, floor((sum(p.us) / 1000 / 60000.0) * 100 + 0.5) as cents,
               min(p.latest_name collate "C") as lo, max(p.latest_name collate "C") as hi
          from parts p group by p.avatar_id having sum(p.calls) > 0
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
      totals as (select coalesce(sum(p.us), 0) as us, coalesce(sum(p.calls), 0)::int as calls from parts p),
      page as (select n.* from named n order by lower(n.avatar_name), n.avatar_name, n.avatar_id limit lim + 1 offset skip),
      numbered as (select pg.*, row_number() over (order by lower(pg.avatar_name), pg.avatar_name, pg.avatar_id) as n from page pg)
      select (select coalesce(json_agg(json_build_object('avatarName', pg.avatar_name, 'avatarId', pg.avatar_id,
                                                         'totalCallDuration', pg.cents::float8 / 100, 'totalCallCount', pg.calls)
                                       order by pg.n) filter (where pg.n <= lim), '[]'::json)
                from numbered pg),
             (select count(*) > lim from numbered),
             t.us / 60000000.0, t.calls, false
        from totals t;`;

/** billing_report over the given edge-rows CTE (0681's here; 0700 passes its own). */
// The walk's two attempts, each reading from the first name (0701 reads in chunks instead).
export const LOOP = `
        for attempt in 1..2 loop
          reads := case when attempt = 1 then least(cap, skip + lim + 1 + walk_from) else cap end;
          exit when attempt = 2 and reads <= skip + lim + 1 + walk_from;
${WALK};
          if found_rows > lim or read_names < reads then
            return query select rows, found_rows > lim, t_us / 60000000.0, t_calls, true;
            return;
          end if;
        end loop;`;

export const reportSql = (rows: string): string => `
    -- The report's page (decision 500; read by account/billing.repository.ts): the page's rows as
    -- one JSON array of BillingRow, whether another page follows, and the total row (the exact
    -- minutes, unrounded, as billing_minutes gives them; the calls). walk_cap: null chooses; 0
    -- always sorts; n > 0 walks at most n candidates, then sorts if the walk did not settle the
    -- page (the tests force both). \`walked\` says which answered.
    create function billing_report(o text, s timestamptz, e timestamptz, lim integer, skip integer, walk_cap integer default null)
      returns table (page json, more boolean, total_minutes float8, total_calls integer, walked boolean)
      language plpgsql stable
      -- Plans made once per connection: the totals' statement was planned anew on every call
      -- (PGlite kept choosing custom plans), which cost more than running it.
      set plan_cache_mode = force_generic_plan as $$
    #variable_conflict use_column
    declare${RANGE_BOUNDS}
      -- Below this many calls in the range, or past this depth, sorting costs less than walking.
      walk_from constant integer := 64;
      walk_depth constant integer := 2000;
      cap integer := walk_cap;
      t_us float8;
      t_calls integer;
      rows json;
      found_rows integer;
      read_names integer;
      reads integer;
      edge_map jsonb;
      -- Whether the owner has rows in the whole days, the whole hours before them, and after them.
      in_days boolean := true;
      in_before boolean := true;
      in_after boolean := true;
    begin
      if s >= e then
        return query select '[]'::json, false, 0::float8, 0, false;
        return;
      end if;
      if cap is null then
        -- A small account sorts: fewer names than walk_from means fewer avatars in the range.
        if (select count(*) from (select from billing_names n where n.owner_id = o limit walk_from) x) >= walk_from
           and skip + lim + 1 <= walk_depth then
          cap := -1;
        else
          cap := 0;
        end if;
      end if;
      if cap <> 0 then
        -- The total row from the owner's rollups, and the range's edge conversations per avatar
        -- (calls, µs, and the latest counted one's start, id and name) for the walk.
        with ${rows}${COUNTED}${OWNER_PARTS}
        edges as (
          select jsonb_object_agg(g.avatar_id, jsonb_build_array(g.calls, g.us, g.latest -> 0, g.latest -> 1, g.latest -> 2)) as map
            from (select c.avatar_id, sum(c.calls)::int as calls, sum(c.us) as us,
                         (array_agg(jsonb_build_array(c.latest_at::text, c.latest_id, c.latest_name) order by c.latest_at desc, c.latest_id desc)
                           filter (where c.latest_at is not null))[1] as latest
                    from counted c group by c.avatar_id) g
        )
        select coalesce(sum(p.us), 0), coalesce(sum(p.calls), 0)::int, (select x.map from edges x),
               coalesce(bool_or(p.run = 1), false), coalesce(bool_or(p.run = 2), false), coalesce(bool_or(p.run = 3), false)
          into t_us, t_calls, edge_map, in_days, in_before, in_after
          from owner_parts p;
        if t_calls = 0 then
          -- No conversation in the range: no rows.
          return query select '[]'::json, false, t_us / 60000000.0, t_calls, true;
          return;
        end if;
        if cap = -1 then
          -- Chosen, not forced: a range with as many calls as walk_from (each avatar with a row
          -- has a call), and a bounded number of candidates (few avatars of many fall back to
          -- the sort).
          cap := case when t_calls >= walk_from then least(skip + lim + 1, t_calls) * 4 + walk_from else 0 end;
        end if;
      end if;
      if cap > 0 then
        -- The walk (0683): first as many candidates as the page needs rows and walk_from more,
        -- then, if those did not settle it, up to the cap. Settled when it found a row past the
        -- page, or read every name.${LOOP}
      end if;
      return query${sortSql(rows)}
    end
    $$;`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function billing_report(text, timestamptz, timestamptz, integer, integer, integer)`.execute(db);
  await sql.raw(reportSql(ROWS_0681)).execute(db);
  await sql.raw(minutesSql(ROWS_0681)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // 0683's up drops this migration's billing_report (same arguments) before creating its own.
  await createReport0683(db);
  await sql`drop function billing_minutes(text, timestamptz, timestamptz)`.execute(db);
  await createMinutes0684(db);
}
