// Persisted usage: seconds of conversation per day per scope (the plan's monthly minutes come
// from the conversation records: modules/account/usage.ts). Nothing here is kept in memory
// only, so reconnects, new sessions and restarts see the same numbers.
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

export async function openConversationsFromIp(db: Kysely<DB>, ip: string): Promise<number> {
  const row = await db
    .selectFrom('conversations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ip_address', '=', ip)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
