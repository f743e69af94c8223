import { sql, type Kysely } from 'kysely';

// Issue 37 item 4 (docs/decisions/500, amendment "the total row as the exact total"): the report's
// total row is the owner's exact minutes and calls in the range, rounded once, which must cost
// O(hours + days of the range), not one row per avatar and day. Two owner-level rollups:
// - billing_owner_hours: per owner and UTC hour, the sums over every avatar of billing_hours
//   (`starts`: ended conversations started in the hour; `us`: microseconds of ended conversations
//   inside the hour).
// - billing_owner_days: the same per UTC day.
// A trigger on billing_hours adds each change of one of its rows to both, in the writing
// transaction, so they always equal the sums of billing_hours (the test rebuilds them and compares).
// Rows emptied by a subtraction are deleted. Subtractions only update: an account deleted removes
// these rows by its own cascade, whatever the order the cascades run in. Updated on every
// conversation end, the rows live in half-empty pages so that PGlite (no autovacuum) updates them
// in place (decision 406's fillfactor).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table billing_owner_hours (
      owner_id text not null references users(id) on delete cascade,
      hour timestamptz not null,
      starts integer not null default 0,
      us bigint not null default 0,
      primary key (owner_id, hour)
    ) with (fillfactor = 50);
    create table billing_owner_days (
      owner_id text not null references users(id) on delete cascade,
      day timestamptz not null,
      starts integer not null default 0,
      us bigint not null default 0,
      primary key (owner_id, day)
    ) with (fillfactor = 50);

    -- Adds (ds, dus) to the owner's hour h and its day. An addition may create the rows; a
    -- subtraction only updates them, then deletes those it emptied. The day's row is locked
    -- before the hour's: every writer then takes the owner's rows in one order (a day, its hours,
    -- the next day...), so two transactions ending conversations of one owner, one of them over
    -- several hours, wait for each other instead of deadlocking (hour first, one could hold an
    -- hour the other needs while waiting for the day the other holds; PostgreSQL).
    create function billing_owner_add(o text, h timestamptz, ds integer, dus bigint)
      returns void language plpgsql as $$
    declare
      d timestamptz := date_trunc('day', h, 'UTC');
    begin
      if ds = 0 and dus = 0 then
        return;
      end if;
      if ds >= 0 and dus >= 0 then
        insert into billing_owner_days as b (owner_id, day, starts, us) values (o, d, ds, dus)
        on conflict (owner_id, day) do update set starts = b.starts + excluded.starts, us = b.us + excluded.us;
        insert into billing_owner_hours as b (owner_id, hour, starts, us) values (o, h, ds, dus)
        on conflict (owner_id, hour) do update set starts = b.starts + excluded.starts, us = b.us + excluded.us;
      else
        update billing_owner_days b set starts = b.starts + ds, us = b.us + dus where b.owner_id = o and b.day = d;
        update billing_owner_hours b set starts = b.starts + ds, us = b.us + dus where b.owner_id = o and b.hour = h;
        delete from billing_owner_days b where b.owner_id = o and b.day = d and b.starts = 0 and b.us = 0;
        delete from billing_owner_hours b where b.owner_id = o and b.hour = h and b.starts = 0 and b.us = 0;
      end if;
    end
    $$;

    create function billing_owner_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.owner_id = new.owner_id and old.hour = new.hour then
        -- The common case: one more conversation in the hour (or one less).
        if new.starts - old.starts >= 0 and new.us - old.us >= 0 or new.starts - old.starts <= 0 and new.us - old.us <= 0 then
          perform billing_owner_add(new.owner_id, new.hour, new.starts - old.starts, new.us - old.us);
        else
          perform billing_owner_add(new.owner_id, new.hour, new.starts - old.starts, 0);
          perform billing_owner_add(new.owner_id, new.hour, 0, new.us - old.us);
        end if;
        return null;
      end if;
      if tg_op <> 'INSERT' then
        perform billing_owner_add(old.owner_id, old.hour, -old.starts, -old.us);
      end if;
      if tg_op <> 'DELETE' then
        perform billing_owner_add(new.owner_id, new.hour, new.starts, new.us);
      end if;
      return null;
    end
    $$;
    create trigger billing_hours_owner after insert or update of owner_id, hour, starts, us or delete on billing_hours
      for each row execute function billing_owner_change();
  `.execute(db);
  await backfillBillingOwners(db);
}

/** The owner-level rollups from billing_hours (on empty tables: the migration). */
export async function backfillBillingOwners(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into billing_owner_hours (owner_id, hour, starts, us)
    select owner_id, hour, sum(starts), sum(us) from billing_hours group by owner_id, hour
    having sum(starts) <> 0 or sum(us) <> 0
  `.execute(db);
  await sql`
    insert into billing_owner_days (owner_id, day, starts, us)
    select owner_id, date_trunc('day', hour, 'UTC'), sum(starts), sum(us) from billing_hours
     group by owner_id, date_trunc('day', hour, 'UTC')
    having sum(starts) <> 0 or sum(us) <> 0
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger billing_hours_owner on billing_hours;
    drop function billing_owner_change();
    drop function billing_owner_add(text, timestamptz, integer, bigint);
    drop table billing_owner_days;
    drop table billing_owner_hours;
  `.execute(db);
}
