import { sql, type Kysely } from 'kysely';

// A day's latest name followed its hours only when the hour's latest conversation changed, not when
// that same conversation was renamed (0680's billing_days_change): the hour took the new name, the
// day kept the old one, and the report named the avatar after it for ranges read by whole days
// (decision 500's amendment "a renamed latest conversation"; billing-rollups.routes.test.ts, seen
// in one run of its "follows renames" test in about a dozen). The day now follows its hour's
// latest name too, and every day row is set again from its hours.
const BEFORE = `
    create or replace function billing_days_change() returns trigger language plpgsql as $$
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

const FIXED = BEFORE.replace(
  'new.latest_id is distinct from old.latest_id)',
  'new.latest_id is distinct from old.latest_id or new.latest_name is distinct from old.latest_name)',
);

/** Each day's latest conversation again from its hours, where they differ. */
const REPAIR = `
    update billing_days b set (latest_at, latest_id, latest_name) = (l.latest_at, l.latest_id, l.latest_name)
      from (select distinct on (h.owner_id, h.avatar_id, date_trunc('day', h.hour, 'UTC'))
                   h.owner_id, h.avatar_id, date_trunc('day', h.hour, 'UTC') as day, h.latest_at, h.latest_id, h.latest_name
              from billing_hours h where h.latest_at is not null
             order by h.owner_id, h.avatar_id, date_trunc('day', h.hour, 'UTC'), h.latest_at desc, h.latest_id desc) l
     where b.owner_id = l.owner_id and b.avatar_id = l.avatar_id and b.day = l.day
       and (b.latest_at, b.latest_id, b.latest_name) is distinct from (l.latest_at, l.latest_id, l.latest_name)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(FIXED).execute(db);
  await sql.raw(REPAIR).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(BEFORE).execute(db);
}
