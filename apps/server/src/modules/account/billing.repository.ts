// The billing report's page from the rollups of migration 0680, through the function
// `billing_report` of migration 0693 as 0700, 0701 and 0702 rebuilt it (its plan is kept per
// connection): the whole days inside the range from billing_days, the other whole hours from
// billing_hours, the range's partial edge hours, the conversations running into them and the open
// ones from their rows; the page found by walking the names table in the report's order (in
// chunks, 0701) when the range has many calls, and returned as one JSON value of four columns
// (0702: cheaper to write than an object per row), turned into the answer's rows here. The total row is the owner's exact minutes and calls from the owner-level
// rollups (0692), rounded once by the caller as the plan's minutes are.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { BillingRow } from '@parla/shared/schemas/billing';
import type { DB } from '../../db/schema';

type Q = Kysely<DB> | Transaction<DB>;

export interface UsagePage {
  /** The page, each row's minutes rounded to two decimals. */
  rows: BillingRow[];
  /** Whether another page follows. */
  more: boolean;
  /** The exact minutes of every conversation in the range, unrounded (as minutesUsed), and their calls. */
  totalMinutes: number;
  totalCalls: number;
}

/** The page as billing_report writes it: one array per field, the i-th row at index i of each. */
interface PageColumns {
  avatarName: string[];
  avatarId: string[];
  totalCallDuration: number[];
  totalCallCount: number[];
}

function pageRows(page: PageColumns): BillingRow[] {
  const { avatarName, avatarId, totalCallDuration, totalCallCount } = page;
  return avatarName.map((name, i) => ({
    avatarName: name,
    avatarId: avatarId[i],
    totalCallDuration: totalCallDuration[i],
    totalCallCount: totalCallCount[i],
  }));
}

/**
 * One page of the range's rows, by name (case-insensitive) then id, each row's minutes rounded to
 * two decimals as JavaScript's Math.round rounds them (decision 500), with the range's totals (the
 * exact minutes, not the sum of the rounded rows).
 */
export async function usagePage(
  db: Q,
  ownerId: string,
  start: Date,
  end: Date,
  limit: number,
  offset: number,
  /** Candidates the walk may read: left out, the function chooses; 0 always sorts (tests force both). */
  walkCap: number | null = null,
): Promise<UsagePage & { walked: boolean }> {
  const res = await sql<{
    page: PageColumns;
    more: boolean;
    total_minutes: number;
    total_calls: number;
    walked: boolean;
  }>`select * from billing_report(${ownerId}, ${start}::timestamptz, ${end}::timestamptz, ${limit}::int, ${offset}::int, ${walkCap}::int)`.execute(
    db,
  );
  const head = res.rows[0];
  return {
    rows: head ? pageRows(head.page) : [],
    more: head?.more === true,
    totalMinutes: Number(head?.total_minutes ?? 0),
    totalCalls: Number(head?.total_calls ?? 0),
    walked: head?.walked === true,
  };
}

/**
 * Minutes of conversation inside the half-open range [start, end), unrounded, from the same
 * rollups (migration 0684): every conversation that overlaps the range counts with its duration
 * clipped to the range; an open one up to its last heartbeat (last_seen_at), so a lost node never
 * bills forever. Equal to the sum over every conversation row (billing-rollups.routes.test.ts).
 */
export async function minutesUsed(db: Q, ownerId: string, start: Date, end: Date): Promise<number> {
  const res = await sql<{ minutes: number | string }>`
    select billing_minutes(${ownerId}, ${start}::timestamptz, ${end}::timestamptz) as minutes`.execute(db);
  return Number(res.rows[0]?.minutes ?? 0);
}
