import { sql, type Kysely } from 'kysely';
import { COUNTED, PARTS_0681, RANGE_BOUNDS, ROWS_0681 } from './0683-billing-report-json';

// The minutes an owner's conversations used in a range, unrounded, from the billing rollups
// (decision 500's amendment "the plan's minutes from the rollups"): the account screen's usage and
// the runtime's monthly-minutes check read a month of every conversation row before, on every
// conversation start of a limited plan and every account_info (about 100 ms of PGlite CPU at
// 5,000 avatars). Same parts as billing_report (0681's edges, hours and days), summed without
// grouping, rounding or names: equal to the sum over every conversation row.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
    create function billing_minutes(o text, s timestamptz, e timestamptz)
      returns float8 language plpgsql stable as $$
    #variable_conflict use_column
    declare${RANGE_BOUNDS}
    begin
      if s >= e then
        return 0;
      end if;
      return (
        with ${ROWS_0681}${COUNTED}${PARTS_0681}
        used as (select coalesce(sum(p.us), 0) as us from parts p)
        select u.us / 60000000.0 from used u
      );
    end
    $$;
  `,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function billing_minutes(text, timestamptz, timestamptz)`.execute(db);
}
