import { sql, type Kysely } from 'kysely';
import { up as billingReport0681 } from './0681-billing-report';

// Issue 37 item 4 (docs/decisions/500, amendment "an index walk for the first page"): the same
// answers as migration 0681's billing_report, with the page found by walking the names avatars
// were ever reported under, in the report's order, instead of naming and sorting every avatar of
// the range. The total row and the count still need every avatar's rounded minutes: that pass is
// kept (without names, without a sort).
// - billing_names: every (avatar, name) pair any conversation of the owner carried, kept by
//   triggers on conversations (insert-only: a pair no longer used is a candidate that fails),
//   indexed in the report's order (lower-cased name, name, avatar id, default collation).
// - billing_hours and billing_days get indexes by avatar, so one avatar's figure in a range is a
//   few index probes (days, the two runs of whole hours) plus its edge conversations.
const ROWS_0681 = `
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

const PARTS_0681 = `
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

// What each edge conversation adds in the range and takes off the whole hours (as in 0681).
const COUNTED = `
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
  await sql`
    create table billing_names (
      owner_id text not null references users(id) on delete cascade,
      avatar_id text not null,
      name text not null,
      primary key (owner_id, avatar_id, name)
    );
    -- The report's order (0681's page: lower(name), name, avatar id, in the default collation).
    create index billing_names_order_idx on billing_names (owner_id, lower(name), name, avatar_id);
    create index billing_hours_avatar_idx on billing_hours (owner_id, avatar_id, hour);
    create index billing_days_avatar_idx on billing_days (owner_id, avatar_id, day);

    create function billing_names_add() returns trigger language plpgsql as $$
    begin
      insert into billing_names (owner_id, avatar_id, name) values (new.owner_id, new.avatar_id, new.avatar_name)
      on conflict do nothing;
      return null;
    end
    $$;
    create trigger conversations_billing_names_insert after insert on conversations
      for each row execute function billing_names_add();
    create trigger conversations_billing_names_update after update on conversations
      for each row when ((old.owner_id, old.avatar_id, old.avatar_name) is distinct from (new.owner_id, new.avatar_id, new.avatar_name))
      execute function billing_names_add();
    insert into billing_names (owner_id, avatar_id, name)
    select distinct owner_id, avatar_id, avatar_name from conversations
    on conflict do nothing;

    drop function billing_report(text, timestamptz, timestamptz, integer, integer);
  `.execute(db);
  await createReport0682(db);
}

/** This migration's billing_report (also 0683's `down`). */
export async function createReport0682(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
    -- The report's page (decision 500; read by account/billing.repository.ts), answering exactly
    -- what 0681's function answered. walk_cap: null chooses; 0 always sorts (0681's statement);
    -- n > 0 walks at most n candidates, then sorts if the walk did not find the whole page (the
    -- tests force both). \`walked\` says which answered.
    create function billing_report(o text, s timestamptz, e timestamptz, lim integer, skip integer, walk_cap integer default null)
      returns table (avatar_id text, avatar_name text, minutes float8, calls integer, total integer, total_minutes float8, total_calls integer, walked boolean)
      language plpgsql stable as $$
    #variable_conflict use_column
    declare
      h_start timestamptz := date_trunc('hour', s, 'UTC');
      h_first timestamptz := case when date_trunc('hour', s, 'UTC') = s then s else date_trunc('hour', s, 'UTC') + interval '1 hour' end;
      h_last timestamptz := date_trunc('hour', e, 'UTC');
      d_first timestamptz := case when date_trunc('day', h_first, 'UTC') = h_first then h_first else date_trunc('day', h_first, 'UTC') + interval '1 day' end;
      d_last timestamptz := greatest(d_first, date_trunc('day', h_last, 'UTC'));
      -- Below this many avatars in the range, or past this depth, sorting costs less than walking.
      walk_from constant integer := 64;
      walk_depth constant integer := 2000;
      cap integer := walk_cap;
      t_total integer;
      t_minutes float8;
      t_calls integer;
      wanted integer;
      ids text[];
      names text[];
      cents float8[];
      ncalls integer[];
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
          return query select null::text, null::text, null::float8, null::int, t_total, t_minutes, t_calls, true;
          return;
        end if;
      end if;
      if cap > 0 and s < e then
        -- The walk: candidates in the report's order; each kept if its avatar has calls in the
        -- range and this is the name of its latest conversation there (by start, then id).
        -- Run by EXECUTE, planned with this call's values: a plan kept for any cap read every
        -- name and sorted them on PostgreSQL instead of walking the index.
        execute $walk$
        with walk as (
          select n.avatar_id, n.name, n.k, u.calls, u.cents
            from (select b.avatar_id, b.name, lower(b.name) as k from billing_names b where b.owner_id = $1
                   order by lower(b.name), b.name, b.avatar_id limit $7) n
            cross join lateral (
              select sum(q.calls)::int as calls, floor((sum(q.us) / 1000 / 60000.0) * 100 + 0.5) as cents,
                     (array_agg(q.latest_name order by q.latest_at desc, q.latest_id desc) filter (where q.latest_at is not null))[1] as latest
                from (
                  select d.starts as calls, d.us::float8 as us, d.latest_at, d.latest_id, d.latest_name
                    from billing_days d where d.owner_id = $1 and d.avatar_id = n.avatar_id and d.day >= $2 and d.day < $3
                  union all
                  select d.starts, d.us::float8, d.latest_at, d.latest_id, d.latest_name
                    from billing_hours d where d.owner_id = $1 and d.avatar_id = n.avatar_id and d.hour >= $4 and d.hour < least($2, $5)
                  union all
                  select d.starts, d.us::float8, d.latest_at, d.latest_id, d.latest_name
                    from billing_hours d where d.owner_id = $1 and d.avatar_id = n.avatar_id and d.hour >= greatest($3, $4) and d.hour < $5
                  union all
                  select (x.v ->> 0)::int, (x.v ->> 1)::float8, (x.v ->> 2)::timestamptz, x.v ->> 3, x.v ->> 4
                    from (select $6 -> n.avatar_id as v offset 0) x where x.v is not null
                ) q
            ) u
           where u.calls > 0 and u.latest = n.name
           order by n.k, n.name, n.avatar_id
           limit $8 offset $9
        )
        select array_agg(w.avatar_id order by w.k, w.name, w.avatar_id), array_agg(w.name order by w.k, w.name, w.avatar_id),
               array_agg(w.cents order by w.k, w.name, w.avatar_id), array_agg(w.calls order by w.k, w.name, w.avatar_id)
          from walk w
        $walk$
          into ids, names, cents, ncalls using o, d_first, d_last, h_first, h_last, edge_map, cap, lim, skip;
        if coalesce(cardinality(ids), 0) = wanted then
          return query
          select r.i, r.n, r.c::float8 / 100, r.k, t_total, t_minutes, t_calls, true
            from unnest(ids, names, cents, ncalls) with ordinality as r(i, n, c, k, ord)
           order by r.ord;
          return;
        end if;
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
      select pg.avatar_id, pg.avatar_name, pg.cents::float8 / 100, pg.calls, t.total, t.total_minutes, t.total_calls, false
        from totals t left join page pg on true
       order by lower(pg.avatar_name), pg.avatar_name, pg.avatar_id;
    end
    $$;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop function billing_report(text, timestamptz, timestamptz, integer, integer, integer);
    drop trigger conversations_billing_names_insert on conversations;
    drop trigger conversations_billing_names_update on conversations;
    drop function billing_names_add();
    drop table billing_names;
    drop index billing_hours_avatar_idx;
    drop index billing_days_avatar_idx;
  `.execute(db);
  await billingReport0681(db);
}
