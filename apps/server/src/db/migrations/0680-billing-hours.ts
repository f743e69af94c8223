import { sql, type Kysely } from 'kysely';

// Issue 37 item 4 (docs/decisions/500, amendment of 2026-11-29): the billing report reads ended
// conversations' time per avatar and UTC hour instead of every conversation of the range.
// - billing_hours: per owner, UTC hour and avatar, the ended conversations that started in that
//   hour (`starts`) and the microseconds of every ended conversation inside that hour (`us`: a
//   conversation is split over the hours it spans), and the latest of those starting in the hour
//   (by start, then id) with its name (the report names a row after its latest conversation).
// - billing_days: the same by UTC day (kept from billing_hours by a trigger on it), so a month
//   reads about 30 rows per avatar and only the range's partial days by the hour.
// - billing_crossings: the hours a conversation runs into from an earlier hour, so the report
//   finds the conversations in progress at a range's edge without scanning the history.
// Triggers keep them in the transaction of the conversation's writes: a conversation counts from
// its end (an open one is read from its row; heartbeats of open ones fire nothing). Existing
// ended conversations are rolled up here.
/** The trigger function keeping billing_days from billing_hours (0694 derives its fix from this text). */
export const DAYS_CHANGE_0680 = `
    create function billing_days_change() returns trigger language plpgsql as $$
    declare
      d timestamptz;
      moved boolean := tg_op = 'DELETE' or (tg_op = 'UPDATE' and (old.owner_id, old.hour, old.avatar_id) is distinct from (new.owner_id, new.hour, new.avatar_id));
      add_starts integer := 0;
      add_us bigint := 0;
    begin
      if moved then
        d := date_trunc('day', old.hour, 'UTC');
        update billing_days b set starts = b.starts - old.starts, us = b.us - old.us
         where b.owner_id = old.owner_id and b.day = d and b.avatar_id = old.avatar_id;
      end if;
      if tg_op <> 'DELETE' then
        -- An hour's row changed in place (the common case: one more conversation) adds its change.
        add_starts := case when tg_op = 'UPDATE' and not moved then new.starts - old.starts else new.starts end;
        add_us := case when tg_op = 'UPDATE' and not moved then new.us - old.us else new.us end;
        insert into billing_days as b (owner_id, day, avatar_id, starts, us, latest_at, latest_id, latest_name)
        values (new.owner_id, date_trunc('day', new.hour, 'UTC'), new.avatar_id, add_starts, add_us, new.latest_at, new.latest_id, new.latest_name)
        on conflict (owner_id, day, avatar_id) do update set
          starts = b.starts + excluded.starts,
          us = b.us + excluded.us,
          latest_at = case when excluded.latest_at is not null and (b.latest_at is null or (excluded.latest_at, excluded.latest_id) > (b.latest_at, b.latest_id)) then excluded.latest_at else b.latest_at end,
          latest_name = case when excluded.latest_at is not null and (b.latest_at is null or (excluded.latest_at, excluded.latest_id) > (b.latest_at, b.latest_id)) then excluded.latest_name else b.latest_name end,
          latest_id = case when excluded.latest_at is not null and (b.latest_at is null or (excluded.latest_at, excluded.latest_id) > (b.latest_at, b.latest_id)) then excluded.latest_id else b.latest_id end;
      end if;
      if tg_op <> 'INSERT' then
        d := date_trunc('day', old.hour, 'UTC');
        if old.latest_id is not null and (moved or new.latest_id is distinct from old.latest_id) then
          update billing_days b set (latest_at, latest_id, latest_name) = (
            select h.latest_at, h.latest_id, h.latest_name from billing_hours h
             where h.owner_id = old.owner_id and h.avatar_id = old.avatar_id and h.hour >= d and h.hour < d + interval '1 day'
               and h.latest_at is not null
             order by h.latest_at desc, h.latest_id desc limit 1)
           where b.owner_id = old.owner_id and b.day = d and b.avatar_id = old.avatar_id and b.latest_id = old.latest_id;
        end if;
        if moved or (new.starts = 0 and new.us = 0) then
          delete from billing_days b
           where b.owner_id = old.owner_id and b.day = d and b.avatar_id = old.avatar_id and b.starts = 0 and b.us = 0;
        end if;
      end if;
      return null;
    end
    $$;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table billing_hours (
      owner_id text not null references users(id) on delete cascade,
      hour timestamptz not null,
      avatar_id text not null,
      starts integer not null default 0,
      us bigint not null default 0,
      latest_at timestamptz,
      latest_id text,
      latest_name text,
      primary key (owner_id, hour, avatar_id)
    );
    create table billing_days (
      owner_id text not null references users(id) on delete cascade,
      day timestamptz not null,
      avatar_id text not null,
      starts integer not null default 0,
      us bigint not null default 0,
      latest_at timestamptz,
      latest_id text,
      latest_name text,
      primary key (owner_id, day, avatar_id)
    );
    create table billing_crossings (
      owner_id text not null references users(id) on delete cascade,
      hour timestamptz not null,
      conversation_id text not null,
      primary key (owner_id, hour, conversation_id)
    );

    -- billing_days sums billing_hours by UTC day, kept by this trigger on its rows; the day's latest
    -- conversation, when the hour holding it loses it, is the latest of the day's hours.
    ${sql.raw(DAYS_CHANGE_0680)}
    create trigger billing_hours_days after insert or update or delete on billing_hours
      for each row execute function billing_days_change();

    -- The hours [st, un) covers, each with the microseconds inside it; a conversation of no
    -- length (or a negative one) has its start hour with 0.
    create function billing_pieces(st timestamptz, un timestamptz)
      returns table (hour timestamptz, us bigint) language sql stable as $$
      select h, case when un > st
                  then (extract(epoch from (least(un, h + interval '1 hour') - greatest(st, h))) * 1000000)::bigint
                  else 0 end
        from generate_series(date_trunc('hour', st, 'UTC'), greatest(st, un - interval '1 microsecond'), interval '1 hour') h
    $$;

    create function billing_hours_add(o text, a text, cid text, nm text, st timestamptz, un timestamptz)
      returns void language plpgsql as $$
    declare
      first_hour timestamptz := date_trunc('hour', st, 'UTC');
    begin
      insert into billing_hours as b (owner_id, hour, avatar_id, starts, us, latest_at, latest_id, latest_name)
      select o, p.hour, a, (p.hour = first_hour)::int, p.us,
             case when p.hour = first_hour then st end, case when p.hour = first_hour then cid end,
             case when p.hour = first_hour then nm end
        from billing_pieces(st, un) p
      on conflict (owner_id, hour, avatar_id) do update set
        starts = b.starts + excluded.starts,
        us = b.us + excluded.us,
        latest_at = case when excluded.latest_at is not null and (b.latest_at is null or (excluded.latest_at, excluded.latest_id) > (b.latest_at, b.latest_id)) then excluded.latest_at else b.latest_at end,
        latest_name = case when excluded.latest_at is not null and (b.latest_at is null or (excluded.latest_at, excluded.latest_id) > (b.latest_at, b.latest_id)) then excluded.latest_name else b.latest_name end,
        latest_id = case when excluded.latest_at is not null and (b.latest_at is null or (excluded.latest_at, excluded.latest_id) > (b.latest_at, b.latest_id)) then excluded.latest_id else b.latest_id end;
      insert into billing_crossings (owner_id, hour, conversation_id)
      select o, p.hour, cid from billing_pieces(st, un) p where p.hour > first_hour
      on conflict do nothing;
    end
    $$;

    create function billing_hours_remove(o text, a text, cid text, st timestamptz, un timestamptz)
      returns void language plpgsql as $$
    declare
      first_hour timestamptz := date_trunc('hour', st, 'UTC');
    begin
      update billing_hours b set us = b.us - p.us, starts = b.starts - (p.hour = first_hour)::int
        from billing_pieces(st, un) p
       where b.owner_id = o and b.avatar_id = a and b.hour = p.hour;
      -- The hour's latest conversation left it: the next latest, read from the rows of that hour.
      update billing_hours b set (latest_at, latest_id, latest_name) = (
        select c.started_at, c.id, c.avatar_name from conversations c
         where c.owner_id = o and c.avatar_id = a and c.started_at >= first_hour and c.started_at < first_hour + interval '1 hour'
           and c.ended_at is not null
         order by c.started_at desc, c.id desc limit 1)
       where b.owner_id = o and b.avatar_id = a and b.hour = first_hour and b.latest_id = cid;
      delete from billing_hours b
       where b.owner_id = o and b.avatar_id = a and b.hour in (select hour from billing_pieces(st, un)) and b.starts = 0 and b.us = 0;
      delete from billing_crossings x
       where x.owner_id = o and x.conversation_id = cid and x.hour in (select hour from billing_pieces(st, un));
    end
    $$;

    -- Most conversations lie within one hour: one upsert, no crossings (a quarter of the cost).
    create function billing_hours_change() returns trigger language plpgsql as $$
    declare
      h timestamptz;
    begin
      if tg_op <> 'INSERT' and old.ended_at is not null then
        perform billing_hours_remove(old.owner_id, old.avatar_id, old.id, old.started_at, old.ended_at);
      end if;
      if tg_op <> 'DELETE' and new.ended_at is not null then
        h := date_trunc('hour', new.started_at, 'UTC');
        if new.ended_at > h + interval '1 hour' then
          perform billing_hours_add(new.owner_id, new.avatar_id, new.id, new.avatar_name, new.started_at, new.ended_at);
        else
          insert into billing_hours as b (owner_id, hour, avatar_id, starts, us, latest_at, latest_id, latest_name)
          values (new.owner_id, h, new.avatar_id, 1,
                  case when new.ended_at > new.started_at then (extract(epoch from (new.ended_at - new.started_at)) * 1000000)::bigint else 0 end,
                  new.started_at, new.id, new.avatar_name)
          on conflict (owner_id, hour, avatar_id) do update set
            starts = b.starts + 1,
            us = b.us + excluded.us,
            latest_at = case when b.latest_at is null or (excluded.latest_at, excluded.latest_id) > (b.latest_at, b.latest_id) then excluded.latest_at else b.latest_at end,
            latest_name = case when b.latest_at is null or (excluded.latest_at, excluded.latest_id) > (b.latest_at, b.latest_id) then excluded.latest_name else b.latest_name end,
            latest_id = case when b.latest_at is null or (excluded.latest_at, excluded.latest_id) > (b.latest_at, b.latest_id) then excluded.latest_id else b.latest_id end;
        end if;
      end if;
      return null;
    end
    $$;
    create trigger conversations_billing_insert after insert on conversations
      for each row when (new.ended_at is not null) execute function billing_hours_change();
    create trigger conversations_billing_update after update on conversations
      for each row when ((old.ended_at is not null or new.ended_at is not null)
        and (old.id, old.owner_id, old.avatar_id, old.avatar_name, old.started_at, old.ended_at)
            is distinct from (new.id, new.owner_id, new.avatar_id, new.avatar_name, new.started_at, new.ended_at))
      execute function billing_hours_change();
    create trigger conversations_billing_delete after delete on conversations
      for each row when (old.ended_at is not null) execute function billing_hours_change();
  `.execute(db);
  await backfillBillingHours(db);
}

/** Rolls up every ended conversation (on empty tables: the migration). */
export async function backfillBillingHours(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into billing_hours (owner_id, hour, avatar_id, starts, us, latest_at, latest_id, latest_name)
    select p.owner_id, p.hour, p.avatar_id, sum(p.starts), sum(p.us), l.started_at, l.id, l.avatar_name
      from (select c.owner_id, c.avatar_id, x.hour, (x.hour = date_trunc('hour', c.started_at, 'UTC'))::int as starts, x.us
              from conversations c cross join lateral billing_pieces(c.started_at, c.ended_at) x
             where c.ended_at is not null) p
      left join (select distinct on (owner_id, avatar_id, date_trunc('hour', started_at, 'UTC'))
                        owner_id, avatar_id, date_trunc('hour', started_at, 'UTC') as hour, started_at, id, avatar_name
                   from conversations where ended_at is not null
                  order by owner_id, avatar_id, date_trunc('hour', started_at, 'UTC'), started_at desc, id desc) l
        on l.owner_id = p.owner_id and l.avatar_id = p.avatar_id and l.hour = p.hour
     group by p.owner_id, p.hour, p.avatar_id, l.started_at, l.id, l.avatar_name
  `.execute(db);
  await sql`
    insert into billing_crossings (owner_id, hour, conversation_id)
    select c.owner_id, x.hour, c.id
      from conversations c cross join lateral billing_pieces(c.started_at, c.ended_at) x
     where c.ended_at is not null and x.hour > date_trunc('hour', c.started_at, 'UTC')
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger conversations_billing_delete on conversations;
    drop trigger conversations_billing_update on conversations;
    drop trigger conversations_billing_insert on conversations;
    drop function billing_hours_change();
    drop function billing_hours_remove(text, text, text, timestamptz, timestamptz);
    drop function billing_hours_add(text, text, text, text, timestamptz, timestamptz);
    drop function billing_pieces(timestamptz, timestamptz);
    drop trigger billing_hours_days on billing_hours;
    drop function billing_days_change();
    drop table billing_crossings;
    drop table billing_days;
    drop table billing_hours;
  `.execute(db);
}
