// Persisted usage: seconds of conversation per day per scope, and the owner's minutes this
// calendar month (from the conversation records, the billing report's source). Nothing here is
// kept in memory only, so reconnects, new sessions and restarts see the same numbers.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';

export type UsageScope = 'session' | 'ip' | 'demo';

export interface UsageKey {
  scope: UsageScope;
  key: string;
}

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
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

/** Seconds of conversation an owner used this calendar month (open conversations count to now). */
export async function monthSeconds(db: Kysely<DB>, ownerId: string, at: Date): Promise<number> {
  const row = await db
    .selectFrom('conversations')
    .select(sql<number>`coalesce(sum(extract(epoch from (coalesce(ended_at, ${at}::timestamptz) - started_at))), 0)`.as('s'))
    .where('owner_id', '=', ownerId)
    .where('started_at', '>=', monthStart(at))
    .executeTakeFirst();
  return Math.max(0, Number(row?.s ?? 0));
}

export async function openConversationsFromIp(db: Kysely<DB>, ip: string): Promise<number> {
  const row = await db
    .selectFrom('conversations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ip_address', '=', ip)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
