// The daily allowances' counters (usage_counters): seconds of conversation per day per scope —
// per device ('session' in the table, the spec's "per session" limit), per IP, demo per IP. The
// plan's monthly minutes are another meaning, read from the conversation records
// (modules/account/usage.ts). Nothing is kept in memory only, so reconnects and restarts agree.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';

export type UsageScope = 'session' | 'ip' | 'demo';

export interface UsageKey {
  scope: UsageScope;
  key: string;
}

/** Rows per statement when many conversations are accounted at once (bound parameters). */
const BATCH = 1000;

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export async function addUsage(db: Kysely<DB>, keys: UsageKey[], seconds: number, at: Date): Promise<void> {
  if (seconds <= 0 || !keys.length) return;
  const day = utcDay(at);
  await db
    .insertInto('usage_counters')
    .values(keys.map((k) => ({ scope: k.scope, key: k.key, day, seconds, updated_at: at })))
    .onConflict((oc) =>
      oc.columns(['scope', 'key', 'day']).doUpdateSet({ seconds: sql`usage_counters.seconds + excluded.seconds`, updated_at: at }),
    )
    .execute();
}

/** A usage key as one string (scope and key), for maps. */
export const usageId = (k: UsageKey) => `${k.scope}\u0000${k.key}`;

/** Seconds of several conversations at once: the same key's seconds are summed first (one
 *  statement may not update a row twice). */
export async function addUsageMany(db: Kysely<DB>, parts: { keys: UsageKey[]; seconds: number }[], at: Date): Promise<void> {
  const totals = new Map<string, { key: UsageKey; seconds: number }>();
  for (const p of parts) {
    if (p.seconds <= 0) continue;
    for (const key of p.keys) {
      const t = totals.get(usageId(key)) ?? { key, seconds: 0 };
      t.seconds += p.seconds;
      totals.set(usageId(key), t);
    }
  }
  const all = [...totals.values()];
  for (let i = 0; i < all.length; i += BATCH) {
    const slice = all.slice(i, i + BATCH);
    await addUsageRows(db, slice, at);
  }
}

async function addUsageRows(db: Kysely<DB>, rows: { key: UsageKey; seconds: number }[], at: Date): Promise<void> {
  const day = utcDay(at);
  await db
    .insertInto('usage_counters')
    .values(rows.map((r) => ({ scope: r.key.scope, key: r.key.key, day, seconds: r.seconds, updated_at: at })))
    .onConflict((oc) =>
      oc.columns(['scope', 'key', 'day']).doUpdateSet({ seconds: sql`usage_counters.seconds + excluded.seconds`, updated_at: at }),
    )
    .execute();
}

/** Today's seconds of many keys in a few statements (usageId → seconds; absent = 0). */
export async function usageTodayMany(db: Kysely<DB>, keys: UsageKey[], at: Date): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const names = [...new Set(keys.map((k) => k.key))];
  for (let i = 0; i < names.length; i += BATCH) {
    const rows = await db
      .selectFrom('usage_counters')
      .select(['scope', 'key', 'seconds'])
      .where('day', '=', utcDay(at))
      .where('key', 'in', names.slice(i, i + BATCH))
      .execute();
    for (const r of rows) out.set(usageId({ scope: r.scope as UsageScope, key: r.key }), Number(r.seconds));
  }
  return out;
}

export async function usageToday(db: Kysely<DB>, key: UsageKey, at: Date): Promise<number> {
  const row = await db
    .selectFrom('usage_counters')
    .select('seconds')
    .where('scope', '=', key.scope)
    .where('key', '=', key.key)
    .where('day', '=', utcDay(at))
    .executeTakeFirst();
  return row ? Number(row.seconds) : 0;
}
