import { sql, type Kysely } from 'kysely';
import { DAYS_CHANGE_0680 } from './0680-billing-hours';

// A day's latest name followed its hours only when the hour's latest conversation changed, not when
// that same conversation was renamed (0680's billing_days_change): the hour took the new name, the
// day kept the old one, and the report named the avatar after it for ranges read by whole days
// (decision 500's amendment "a renamed latest conversation"; billing-rollups.routes.test.ts, seen
// in one run of its "follows renames" test in about a dozen). The day now follows its hour's
// latest name too, and every day row is set again from its hours.
// 0680's function as it was (what `down` restores).
const BEFORE = DAYS_CHANGE_0680.replace('create function', 'create or replace function');

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
